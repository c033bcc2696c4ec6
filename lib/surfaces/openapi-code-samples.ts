import type { Capability } from "../../registry/capabilities.ts";
import { LIMIT_HEADERS } from "../../registry/limits.ts";

/**
 * `x-codeSamples` of an operation (Redocly's extension, which Scalar also shows): curl, JavaScript
 * with plain `fetch` and Python with requests. Each runs as shown with PDS_URL and PDS_TOKEN set:
 * nothing to install but curl, Node 20+ (or a browser) and requests, so no sample names the typed
 * client, which is not published (test/surfaces/code-samples.test.ts runs the JavaScript ones).
 * Built from the registry's route and the operation's own examples, so a sample cannot name a field
 * or path that does not exist.
 */
export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

export interface SampleCall {
  /** The request body's example (POST and PATCH). */
  body?: unknown;
  /** Query parameters to send: the required ones with an example value, and a page size. */
  query: Record<string, string | number>;
  /** The success answer's media type when it is not JSON (a file to save). */
  download?: { contentType: string; file: string };
}

const SAMPLE_ID = "3f6c1a9e-2b4d-4e8f-9a7c-5d1e0b2c4f6a";

export function codeSamples(capability: Capability, call: SampleCall): CodeSample[] {
  const http = capability.http;
  if (!http) return [];
  const method = http.method;
  const search = new URLSearchParams(
    Object.entries(call.query).map(([name, value]) => [name, String(value)]),
  ).toString();
  const path = `${http.path.replace(/\{[^}]+\}/g, SAMPLE_ID)}${search ? `?${search}` : ""}`;
  const hasBody = (method === "POST" || method === "PATCH") && call.body !== undefined;
  const request: Request = {
    method,
    path,
    json: hasBody ? JSON.stringify(call.body, null, 2) : "",
    creates: capability.creates,
  };
  const answer: Answer = call.download
    ? { kind: "file", file: call.download.file }
    : capability.successStatus === 204
      ? { kind: "none" }
      : { kind: "json" };
  return [
    { lang: "Shell", label: "curl", source: curl(request, answer) },
    { lang: "JavaScript", label: "JavaScript (fetch)", source: javascript(request, answer, "limit" in call.query) },
    { lang: "Python", label: "Python (requests)", source: python(request, answer, "limit" in call.query) },
  ];
}

interface Request {
  method: string;
  /** Below /api/v1, with the sample id in place of path parameters and the query string. */
  path: string;
  json: string;
  creates: boolean;
}

type Answer = { kind: "json" } | { kind: "none" } | { kind: "file"; file: string };

const quoteShell = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;

function curl(request: Request, answer: Answer): string {
  const lines = [
    `curl -X ${request.method} "$PDS_URL/api/v1${request.path}"`,
    `  -H "Authorization: Bearer $PDS_TOKEN"`,
  ];
  if (request.json) {
    lines.push(`  -H "Content-Type: application/json"`);
    // A new key per request; send the same key again only to retry this very request.
    if (request.creates)
      lines.push(`  -H "${LIMIT_HEADERS.idempotencyKey}: $(od -An -N16 -tx1 /dev/urandom | tr -d ' \\n')"`);
    lines.push(`  -d ${quoteShell(request.json)}`);
  }
  if (answer.kind === "file") lines.push(`  -o ${answer.file}`);
  return lines.join(" \\\n");
}

function javascript(request: Request, answer: Answer, paginated: boolean): string {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the source of a JavaScript sample, shown as written
  const headers = ["    Authorization: `Bearer ${process.env.PDS_TOKEN}`,"];
  if (request.json) {
    headers.push('    "Content-Type": "application/json",');
    if (request.creates)
      headers.push(
        `    "${LIMIT_HEADERS.idempotencyKey}": crypto.randomUUID(), // the same key again only to retry this request`,
      );
  }
  const options = [`  method: "${request.method}",`, "  headers: {", ...headers, "  },"];
  if (request.json) options.push(`  body: JSON.stringify(${request.json.replace(/\n/g, "\n  ")}),`);
  const done =
    answer.kind === "file"
      ? [
          `await writeFile("${answer.file}", Buffer.from(await response.arrayBuffer()));`,
          `console.log("saved ${answer.file}");`,
        ]
      : answer.kind === "none"
        ? ["console.log(response.status); // 204: done, no body"]
        : ["console.log(await response.json());"];
  return [
    "// Node 20 or later: save as call.mjs, set PDS_URL and PDS_TOKEN, run node call.mjs",
    ...(answer.kind === "file" ? ['import { writeFile } from "node:fs/promises";', ""] : []),
    `const response = await fetch(\`\${process.env.PDS_URL}/api/v1${request.path}\`, {`,
    ...options,
    "});",
    "if (!response.ok) {",
    "  const problem = await response.json(); // application/problem+json; codes: /docs/errors",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source of a JavaScript sample, shown as written
    "  throw new Error(`${response.status} ${problem.code}: ${problem.detail}`);",
    "}",
    ...done,
    ...(paginated ? ["// next page: the same call with &after=<next_cursor> while has_more"] : []),
  ].join("\n");
}

function python(request: Request, answer: Answer, paginated: boolean): string {
  const [route, search] = request.path.split("?");
  const args = [
    `f"{os.environ['PDS_URL']}/api/v1${route}"`,
    'headers={"Authorization": f"Bearer {os.environ[\'PDS_TOKEN\']}"}',
  ];
  if (search) args.push(`params=${JSON.stringify(Object.fromEntries(new URLSearchParams(search)))}`);
  if (request.json) args.push(`json=${pythonLiteral(request.json)}`);
  const lines = ["import os", ...(request.creates && request.json ? ["import uuid"] : []), "import requests", ""];
  if (request.creates && request.json) {
    args[1] = `headers={"Authorization": f"Bearer {os.environ['PDS_TOKEN']}", "${LIMIT_HEADERS.idempotencyKey}": str(uuid.uuid4())}`;
  }
  lines.push(
    `response = requests.request("${request.method}", ${args.join(", ")})`,
    "response.raise_for_status()  # errors are application/problem+json: response.json()['code']",
  );
  if (answer.kind === "file") lines.push(`open("${answer.file}", "wb").write(response.content)`);
  else if (answer.kind === "json") lines.push("print(response.json())");
  if (paginated) lines.push("# next page: the same call with after=<next_cursor> in params while has_more");
  return lines.join("\n");
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
