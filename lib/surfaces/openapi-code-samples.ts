import type { Capability } from "../../registry/capabilities.ts";

/**
 * `x-codeSamples` of an operation (Redocly's extension, which Scalar also shows): curl, JavaScript
 * with the typed client (clients/typescript) and Python with requests. Built from the registry's
 * route and the operation's own examples, so a sample cannot name a field or path that does not exist.
 */
export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

const SAMPLE_ID = "3f6c1a9e-2b4d-4e8f-9a7c-5d1e0b2c4f6a";

export function codeSamples(capability: Capability, body: unknown, paginated: boolean): CodeSample[] {
  const http = capability.http;
  if (!http) return [];
  const method = http.method;
  const concrete = http.path.replace(/\{[^}]+\}/g, SAMPLE_ID);
  const hasBody = (method === "POST" || method === "PATCH") && body !== undefined;
  const json = hasBody ? JSON.stringify(body, null, 2) : "";
  const query = paginated ? "?limit=20" : "";
  return [
    { lang: "Shell", label: "curl", source: curl(method, `${concrete}${query}`, json, capability.creates) },
    {
      lang: "JavaScript",
      label: "JavaScript (typed client)",
      source: javascript(http.path, method, http.pathParams, json, paginated),
    },
    { lang: "Python", label: "Python (requests)", source: python(method, concrete, json, paginated) },
  ];
}

function curl(method: string, path: string, json: string, creates: boolean): string {
  const lines = [`curl -X ${method} "$PDS_URL/api/v1${path}"`, `  -H "Authorization: Bearer $PDS_TOKEN"`];
  if (json) {
    lines.push(`  -H "Content-Type: application/json"`);
    if (creates) lines.push(`  -H "Idempotency-Key: $(uuidgen)"`);
    lines.push(`  -d '${json.replace(/'/g, "'\\''")}'`);
  }
  return lines.join(" \\\n");
}

function javascript(
  path: string,
  method: string,
  pathParams: readonly string[],
  json: string,
  paginated: boolean,
): string {
  const options: string[] = [];
  const params: string[] = [];
  if (pathParams.length) params.push(`path: { ${pathParams.map((name) => `${name}: "${SAMPLE_ID}"`).join(", ")} }`);
  if (paginated) params.push("query: { limit: 20 }");
  if (params.length) options.push(`params: { ${params.join(", ")} }`);
  if (json) options.push(`body: ${json.replace(/\n/g, "\n  ")}`);
  const call = options.length
    ? `pds.${method}("${path}", {\n  ${options.join(",\n  ")},\n})`
    : `pds.${method}("${path}")`;
  return [
    'import { createClient } from "@personal-data-service/client";',
    "",
    "const pds = createClient({ baseUrl: process.env.PDS_URL, token: process.env.PDS_TOKEN });",
    `const { data, error } = await ${call};`,
    "if (error) throw new Error(error.detail); // error.code names the problem: /docs/errors",
    ...(paginated ? ["// next page: pass data.next_cursor as query.after while data.has_more"] : []),
  ].join("\n");
}

function python(method: string, path: string, json: string, paginated: boolean): string {
  const args = [
    `f"{os.environ['PDS_URL']}/api/v1${path}"`,
    'headers={"Authorization": f"Bearer {os.environ[\'PDS_TOKEN\']}"}',
  ];
  if (paginated) args.push('params={"limit": 20}');
  if (json) args.push(`json=${pythonLiteral(json)}`);
  return [
    "import os",
    "import requests",
    "",
    `response = requests.request("${method}", ${args.join(", ")})`,
    "response.raise_for_status()  # errors are application/problem+json: response.json()['code']",
    ...(method === "DELETE" ? [] : ["print(response.json())"]),
  ].join("\n");
}

/** JSON is a Python literal once true/false/null are spelled the Python way. */
function pythonLiteral(json: string): string {
  return json.replace(
    /("(?:[^"\\]|\\.)*")|\b(true|false|null)\b/g,
    (_match, string: string | undefined, word: string | undefined) => {
      if (string) return string;
      return word === "true" ? "True" : word === "false" ? "False" : "None";
    },
  );
}
