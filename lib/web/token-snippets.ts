import { capabilities } from "../../registry/capabilities.ts";
import type { Scope } from "../../registry/scopes.ts";

export interface TokenSnippet {
  label: string;
  language: "shell" | "javascript";
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
 * What the "token created" card shows: the same first call with curl and with plain `fetch`, both
 * holding the new token so they run as shown (the typed client in clients/typescript is not
 * published to npm, so a snippet importing it could not be run by copying it).
 */
export function tokenSnippets(baseUrl: string, token: string, scopes: readonly Scope[]): TokenSnippet[] {
  const site = baseUrl.replace(/\/+$/, "");
  const url = `${site}/api/v1${firstReadablePath(scopes).path}`;
  return [
    {
      label: "curl",
      language: "shell",
      code: `curl -s ${url} \\\n  -H "Authorization: Bearer ${token}"`,
    },
    {
      label: "JavaScript (fetch)",
      language: "javascript",
      code: [
        "// Save as first-call.mjs and run: node first-call.mjs (Node 18 or later)",
        `const response = await fetch("${url}", {`,
        `  headers: { Authorization: "Bearer ${token}" },`,
        "});",
        "const body = await response.json();",
        "// Errors are problem+json: { code, detail, ... }",
        'if (!response.ok) throw new Error(response.status + " " + body.code + ": " + body.detail);',
        "console.log(JSON.stringify(body, null, 2));",
      ].join("\n"),
    },
  ];
}
