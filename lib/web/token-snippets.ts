import { capabilities } from "../../registry/capabilities.ts";
import type { Scope } from "../../registry/scopes.ts";

export interface TokenSnippet {
  label: string;
  language: "shell" | "typescript";
  code: string;
}

/** A first request the new token may make: the first list its scopes allow, else the health check. */
function firstReadablePath(scopes: readonly Scope[]): { path: string; tool: string } {
  const list = capabilities.find(
    (c) => c.http?.method === "GET" && c.http.pathParams.length === 0 && !c.answersByScope && scopes.includes(c.scope),
  );
  return list?.http ? { path: list.http.path, tool: list.tool } : { path: "/health", tool: "" };
}

/**
 * What the "token created" card shows: the same first call with curl and with the typed client
 * (`@personal-data-service/client`, clients/typescript: `pds.GET(path)` answers `{ data, error }`).
 */
export function tokenSnippets(baseUrl: string, token: string, scopes: readonly Scope[]): TokenSnippet[] {
  const site = baseUrl.replace(/\/+$/, "");
  const api = `${site}/api/v1`;
  const { path } = firstReadablePath(scopes);
  return [
    {
      label: "curl",
      language: "shell",
      code: `curl -s ${api}${path} \\\n  -H "Authorization: Bearer ${token}"`,
    },
    {
      label: "TypeScript (typed client)",
      language: "typescript",
      code: [
        `import { createClient } from "@personal-data-service/client";`,
        "",
        `// export PDS_TOKEN=pds_… (the token above) before running this`,
        `const pds = createClient({ baseUrl: "${site}", token: process.env.PDS_TOKEN ?? "" });`,
        `const { data, error } = await pds.GET("${path}");`,
        "if (error) throw new Error(error.detail);",
        "console.log(data);",
      ].join("\n"),
    },
  ];
}
