import { DEFAULT_NEGOTIATED_PROTOCOL_VERSION, ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { MEMBER_DATA_IN_PROSE } from "../../registry/resource-prose.ts";
import {
  acceptedScopes,
  type Capability,
  capabilities,
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
} from "../../registry/capabilities.ts";
import {
  IDEMPOTENCY,
  LIMIT_HEADERS,
  MAX_BODY_BYTES,
  DRAIN_LIMIT,
  policyWindowSeconds,
  RATE_LIMIT_ENV,
  RESOLVER_POLICY,
  TOKEN_POLICY,
} from "../../registry/limits.ts";
import { SCOPES, type Scope } from "../../registry/scopes.ts";
import { EMAIL_WIDE_FACTOR, FREE_FAILURES } from "../auth/sessions-throttle.ts";
import { DEFAULT_TOKEN_DAYS, MAX_TOKEN_DAYS, TOKEN_PATTERN } from "../auth/token-format.ts";
import { insufficientScope, invalidToken } from "../http/auth-problems.ts";
import { ApiError, PROBLEM_CODES, type Problem } from "../http/problem.ts";
import { FIRST_WITHOUT_BATCHES, TRANSPORT_REFUSAL } from "./mcp-messages.ts";
import { exampleOf, referenceSchemas } from "./openapi-json.ts";
import { TOOL_FORMATS } from "./tools.ts";
import type { JsonSchema } from "./tools-json-schema.ts";

/**
 * The guide entries of the reference: sections of info.description, which Scalar lists in its
 * navigation and finds by search. Every fact that lives in code (limits, header names, scopes,
 * problem bodies, which operations take a key or a cursor) is read from there, so the prose cannot
 * drift; test/surfaces/openapi-guide.test.ts checks each entry against the same constants and
 * against what the API answers.
 */
export interface GuideEntry {
  title: string;
  /** Scalar's anchor for the heading (`#description/<slug>`). */
  slug: string;
  markdown: string;
}

export const EXAMPLE_REQUEST_ID = "req_3f9a1c2b4d5e6f708192a3b4c5d6e7f8";

/**
 * The 401 a bad token gets and the 403 of a missing scope on an operation needing `scope`, with
 * their WWW-Authenticate challenges, built by the functions the pipeline answers them with.
 */
export function unauthorizedExample(scope: Scope): { problem: Problem; challenge: string } {
  const error = invalidToken("api", [scope]);
  return { problem: error.toProblem(EXAMPLE_REQUEST_ID), challenge: error.headers["WWW-Authenticate"] ?? "" };
}

export function insufficientScopeExample(scope: Scope): { problem: Problem; challenge: string } {
  const error = insufficientScope([scope]);
  return { problem: error.toProblem(EXAMPLE_REQUEST_ID), challenge: error.headers["WWW-Authenticate"] ?? "" };
}

/** A validation problem as the pipeline answers it (422 with errors[]). */
function invalidExample(): Problem {
  return new ApiError("invalid_request", "The request has 1 invalid field.", {
    errors: [{ pointer: "/name", code: "too_small", message: "name must be at least 1 character." }],
  }).toProblem(EXAMPLE_REQUEST_ID);
}

const json = (value: unknown) => ["```json", JSON.stringify(value, null, 2), "```"].join("\n");
const code = (value: string) => `\`${value}\``;
const status = (problem: keyof typeof PROBLEM_CODES) => `${PROBLEM_CODES[problem].status} ${code(problem)}`;
const rest = (c: Capability) => (c.http ? `${c.http.method} ${c.http.path}` : "");
const restLink = (c: Capability, tag: string) =>
  c.http
    ? `[${code(rest(c))}](#tag/${scalarSlug(tag)}/${c.http.method}${c.http.path})`
    : `[browser tool](#tag/${scalarSlug(c.tool)})`;

/** The slug Scalar gives a tag or a heading in its anchors (lower case, runs of space, _ and - become one -). */
export const scalarSlug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, "")
    .replace(/[\s_-]+/g, "-")
    .replace(/^-+|-+$/g, "");

/** The tag a capability's operation sits under in the reference (its resource, else its path's first segment). */
export function referenceTag(c: Capability): string {
  if (c.source.kind === "resource") return c.source.resource.name;
  if (!c.http) return c.tool;
  return c.http.path.split("/").filter(Boolean)[0] ?? "service";
}

const firstList = () =>
  capabilities.find((c) => c.http?.method === "GET" && c.source.kind === "resource" && c.source.verb === "list");

function gettingStarted(): string {
  const list = firstList();
  const path = list?.http?.path ?? "/health";
  return [
    `One member's data — ${MEMBER_DATA_IN_PROSE} — as one REST API, one assistant tool catalog and one MCP server, all generated from a single registry: a capability is on every surface or on none.`,
    "",
    `The REST API is under ${code("/api/v1")} of the site, JSON in and out. Make a token on [Settings → Tokens](/settings/tokens), then:`,
    "",
    "```sh",
    `curl "$PDS_URL/api/v1${path}?limit=5" \\`,
    '  -H "Authorization: Bearer $PDS_TOKEN"',
    "```",
    "",
    `Every operation below shows the same call in curl, JavaScript (${code("fetch")}, no package to install) and Python (requests). This document itself is [/api/v1/openapi.json](/api/v1/openapi.json); every error code is explained on [/docs/errors](/docs/errors), every tool on [/docs/tools](/docs/tools).`,
  ].join("\n");
}

function authentication(): string {
  const scope = firstList()?.scope ?? "collections:read";
  const denied = unauthorizedExample(scope);
  const scoped = insufficientScopeExample(scope);
  const scopeRows = SCOPES.map((scope) => {
    const tools = capabilities.filter((c) => acceptedScopes(c).includes(scope)).map((c) => code(c.tool));
    return `| ${code(scope)} | ${tools.join(", ") || "—"} |`;
  });
  return [
    `Every call carries a **personal access token** in the ${code("Authorization")} header: ${code("Authorization: Bearer pds_…")}. Make one on [Settings → Tokens](/settings/tokens): choose its name, its scopes and how long it lives (${DEFAULT_TOKEN_DAYS} days unless you choose otherwise, at most ${MAX_TOKEN_DAYS}). The secret is shown once; the service keeps only its hash. A token looks like ${code("pds_")} followed by ${TOKEN_PATTERN.source.match(/\{(\d+)\}/)?.[1]} letters and digits, the last six a checksum, so a mistyped token is refused without a look-up.`,
    "",
    `Apps and assistants acting for a member can instead connect with OAuth 2.1 (authorization code with PKCE): [Connect an assistant](/docs/connect) shows how. Their access token is sent the same way, in the same header, and holds the scopes and limits the member approved on the consent page.`,
    "",
    `A token holds a subset of the ${SCOPES.length} scopes. Reading (GET) needs a ${code(":read")} scope, every other method a ${code(":write")} scope, and ${code(":write")} does not imply ${code(":read")}. Each operation names the scope it needs, and so does each tool.`,
    "",
    "| Scope | Tools and operations |",
    "|---|---|",
    ...scopeRows,
    "",
    `No token, or a malformed, unknown, expired or revoked one (or an OAuth token issued for another resource), is ${status("unauthorized")}. Its challenge names the scopes the operation needs and, as ${code("resource_metadata")}, where an OAuth client finds the authorization server: ${code(`WWW-Authenticate: ${denied.challenge}`)}`,
    "",
    json(denied.problem),
    "",
    `A token without the operation's scope is ${status("insufficient_scope")}; the challenge names the scope it lacks (${code(`WWW-Authenticate: ${scoped.challenge}`)}):`,
    "",
    json(scoped.problem),
  ].join("\n");
}

/** What a credential may do beyond its scopes (lib/auth/credential-limits.ts), as the token page and consent offer it. */
function credentialLimits(): string {
  return [
    "Beyond its scopes, a token can be limited when the member makes it (Settings → Tokens, or `token create` on the CLI); an OAuth grant takes the same limits on its consent page. The limits only narrow what the scopes allow, and the tool catalog (`/api/agent/tools`, MCP `tools/list`) lists only what they let through.",
    "- **Only these collections**: the store itself (row-level security) hides every other collection and its items from the token: a get, update or delete of one is 404, lists, the export and the event log (`GET /events`) leave them out, another member's public collection is invisible too, and an item cannot be written into or moved to a collection outside the list (403 `write_refused`). Creating a collection is refused (403 `collection_limited`): the new collection would fall outside the list, and a token never widens its own reach; the member creates it and makes a token that includes it. Webhook endpoints (every `webhooks:read` and `webhooks:write` operation) are refused the same way: an endpoint receives, and its delivery log lists, the events of every collection.",
    "- **Read-only**: every write (an operation whose scopes are all `:write`) is 403 `read_only_credential`; the catalog lists only the reads.",
    "- **Confirm deletes**: a delete tool (invoke or MCP) deletes nothing and answers a `confirm_delete` directive (invoke: 202 `{ok: true, directive}`) whose `url` opens Settings → Confirmations, where the signed-in member sees the row and confirms; only then is it deleted, as the member. The same delete over REST is 403 `confirmation_required` (nothing is deleted; the detail names the page, where the request waits like a tool's): a REST client reads 2xx as done, and this is not done. A delete the token could not make anyway answers as it would (404, 403 `write_refused`) and holds nothing. Held deletes lapse after 7 days.",
    "- **Only these tools**: any other tool, and the REST operation that is the same capability, is 403 `tool_not_allowed`.",
  ].join("\n");
}

function errors(): string {
  const rows = Object.entries(PROBLEM_CODES).map(
    ([problem, { status, title }]) => `| ${status} | [${code(problem)}](/docs/errors#${problem}) | ${title} |`,
  );
  return [
    `Every error is ${code("application/problem+json")} (RFC 9457): ${code("type")} (a link to the code's explanation), ${code("title")}, ${code("status")}, ${code("detail")} (for people), ${code("code")} (stable, for programs) and ${code("request_id")} (the same as the ${code("Request-Id")} header every response carries: quote it when reporting a problem). A 422 adds ${code("errors[]")}, one per field, each with a JSON Pointer into the input; a write the store refused adds ${code("reason")} (its SQLSTATE, message and, for a known constraint, a stable ${code("reason.code")}); a 429 adds ${code("violated-policies")}.`,
    "",
    json(invalidExample()),
    "",
    `A change or delete of a record the member can read but not change (another member's public collection or channel, a follow of which the member is the followee) is ${status("write_refused")} with ${code("reason.code")} ${code("not_owner")}; a record the member cannot read at all is ${status("not_found")}, as on GET. A method a path does not offer is ${status("method_not_allowed")} with ${code("Allow")}. Each code, with every case that answers it, is on [/docs/errors](/docs/errors).`,
    "",
    "| Status | code | Title |",
    "|---|---|---|",
    ...rows,
  ].join("\n");
}

function pagination(): string {
  const lists = capabilities.filter(
    (c) => c.http?.method === "GET" && "next_cursor" in ((c.output as { shape?: object }).shape ?? {}),
  );
  return [
    `Lists answer one page at a time: ${code('{"data": [...], "has_more": true, "next_cursor": "…"}')}, newest first. ${code("limit")} sets the page size, 1–${MAX_PAGE_SIZE}, ${DEFAULT_PAGE_SIZE} by default; a ${code("limit")} above ${MAX_PAGE_SIZE} is ${status("invalid_request")}, never silently clamped. While ${code("has_more")} is true, pass ${code("next_cursor")} as ${code("after")} to get the next page; on the last page ${code("has_more")} is false and ${code("next_cursor")} is null. The ${code('Link: <…>; rel="next"')} header carries the same next URL. Cursors are opaque and stable under concurrent inserts: a row is never skipped or repeated across pages.`,
    "",
    "```js",
    "let after = null;",
    "do {",
    `  const url = new URL(\`\${process.env.PDS_URL}/api/v1${firstList()?.http?.path ?? ""}\`);`,
    `  url.searchParams.set("limit", "${MAX_PAGE_SIZE}");`,
    '  if (after) url.searchParams.set("after", after);',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source of a JavaScript sample, shown as written
    "  const response = await fetch(url, { headers: { Authorization: `Bearer ${process.env.PDS_TOKEN}` } });",
    "  const page = await response.json();",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source of a JavaScript sample, shown as written
    "  if (!response.ok) throw new Error(`${response.status} ${page.code}: ${page.detail}`);",
    "  for (const row of page.data) console.log(row.id);",
    "  after = page.has_more ? page.next_cursor : null;",
    "} while (after);",
    "```",
    "",
    `Paginated: ${lists.map((c) => restLink(c, referenceTag(c))).join(", ")}.`,
  ].join("\n");
}

function idempotency(): string {
  const creates = capabilities.filter((c) => c.creates);
  const h = LIMIT_HEADERS;
  return [
    `A create is safe to retry with an ${code(h.idempotencyKey)} header: send a new unique key (a UUID) with each new request, and the same key when you retry it.`,
    "",
    `- The key is a structured-field string (${code('"abc"')}) or a bare token of visible ASCII, 1–${IDEMPOTENCY.maxKeyLength} characters; anything else is ${status("malformed_request")}.`,
    `- Keys are kept per member for ${IDEMPOTENCY.windowSeconds / 3600} hours. A retry with the same key and the same payload replays the first answer — status, body and headers — with ${code(`${h.replayed}: true`)}; nothing is created again.`,
    `- The same key with another payload is ${status("idempotency_mismatch")}. A retry while the first request is still running is ${status("idempotency_in_flight")} with ${code(`${h.retryAfter}: 1`)}; a request that crashed frees its key after ${IDEMPOTENCY.leaseSeconds} s.`,
    "- A request that fails stores nothing, so it can be retried with the same key. A secret shown once (a webhook endpoint's) is not replayed: the replay answers null in its place.",
    `- The same holds on ${code("POST /api/agent/invoke")} and over MCP. The header is ignored on operations that do not create.`,
    "",
    `Takes ${code(h.idempotencyKey)}: ${creates.map((c) => restLink(c, referenceTag(c))).join(", ")}.`,
  ].join("\n");
}

function rateLimits(): string {
  const h = LIMIT_HEADERS;
  const resolver = capabilities.filter((c) => c.rateLimit === "resolver");
  const perMinute = (n: number) => Math.round(n * 60 * 100) / 100;
  return [
    `Each token has its own buckets (and each signed-in browser session its own): a token's traffic never slows another token's. A bucket holds up to its capacity and refills continuously.`,
    "",
    "| Policy | Capacity (burst) | Refill | Applies to |",
    "|---|---|---|---|",
    ...[TOKEN_POLICY, RESOLVER_POLICY].map(
      (p) => `| ${code(`"${p.name}"`)} | ${p.capacity} | ${perMinute(p.refillPerSecond)} per minute | ${p.appliesTo} |`,
    ),
    "",
    `The ${code(`"${RESOLVER_POLICY.name}"`)} policy applies on top of ${code(`"${TOKEN_POLICY.name}"`)} to ${resolver.map((c) => restLink(c, referenceTag(c))).join(", ")}.`,
    "",
    `- Every answer to a call that passed authentication carries ${code(h.policy)} (${code(`"${TOKEN_POLICY.name}";q=${TOKEN_POLICY.capacity};w=${policyWindowSeconds(TOKEN_POLICY)}`)}: q requests per w seconds, the time an empty bucket takes to fill) and ${code(h.state)} (${code(`"${TOKEN_POLICY.name}";r=${TOKEN_POLICY.capacity - 1};t=1`)}: r requests available now, t seconds until the next one), per draft-ietf-httpapi-ratelimit-headers.`,
    `- A request over a limit is ${status("rate_limited")} with ${code(h.retryAfter)} (whole seconds to wait) and ${code("violated-policies")} naming the empty buckets. A refused request consumes nothing; wait ${code(h.retryAfter)} seconds, then retry.`,
    "- Requests refused before authentication (401, unknown route, 405, unreadable body) are not counted and carry no RateLimit fields: there is no token to count them against. Limits per client address belong to the proxy in front.",
    `- **MCP** (${code("/api/mcp")}): every request (one POST, a batch too) spends one from the ${code(`"${TOKEN_POLICY.name}"`)} bucket and carries the same fields, whatever it holds (${code("initialize")}, ${code("ping")}, ${code("tools/list")}, notifications), except a ${code("tools/call")}, which spends what its tool spends, as on REST. A request over a limit is HTTP ${PROBLEM_CODES.rate_limited.status} with ${code(h.retryAfter)} and the RateLimit fields, and its body is a JSON-RPC error with code ${code(String(TRANSPORT_REFUSAL))} whose ${code("data")} is the ${code("rate_limited")} problem. A ${code("tools/call")} refused by its tool's limit is instead answered like any refused tool call, a result with ${code("isError: true")} carrying the ${code("rate_limited")} problem (HTTP 200, with ${code(h.retryAfter)} and the fields), so the model reads it. A request refused before anything runs is not counted and carries no RateLimit fields, like an unreadable body: one answered with a JSON-RPC error listed under Tools (a body that is not JSON-RPC the server takes, params its method does not take, an unknown tool) or refused by the transport for its headers (406, 415, an unsupported ${code("MCP-Protocol-Version")}).`,
    `- With ${code("REDIS_URL")} set, buckets live in Redis and hold across instances; if Redis cannot be reached, each instance falls back to its own buckets (reported as ${code("rate_limit_store")} by ${code("GET /api/v1/health")}). Operators may change the numbers with ${Object.values(RATE_LIMIT_ENV).map(code).join(", ")}.`,
    `- Sign-in to the settings pages (a browser form, not this API) is slowed per email and client address: ${FREE_FAILURES} failures are free, then each attempt waits a doubling pause (1 s, 2 s, 4 s …, at most 15 minutes); per email alone the same after ${FREE_FAILURES * EMAIL_WIDE_FACTOR}. The client address is the connection's own unless the operator sets ${code("TRUSTED_PROXY_HOPS")} to the number of proxies in front that append to ${code("X-Forwarded-For")} (then the entry that many places from the right); on Vercel it is Vercel's ${code("X-Vercel-Forwarded-For")}. A client's own ${code("X-Forwarded-For")} is never taken at its word.`,
  ].join("\n");
}

function tools(): string {
  const rows = capabilities.map(
    (c) =>
      `| ${code(c.tool)} | ${c.summary.replace(/\|/g, "\\|").split(/(?<=\.) /)[0]} | ${restLink(c, referenceTag(c))} | ${acceptedScopes(c).map(code).join(", ")} |`,
  );
  return [
    "Every capability is also a tool for an assistant, with the same name, scope, input and answer as its REST operation:",
    "",
    `- ${code("GET /api/agent/tools")} lists the tools the token's scopes allow; ${code("?format=")} picks the dialect: ${TOOL_FORMATS.map(code).join(", ")}.`,
    `- ${code('POST /api/agent/invoke {"tool": "…", "input": {…}}')} runs one through the same pipeline as REST (token, rate limit, scope, validation, ${code(LIMIT_HEADERS.idempotencyKey)}, the member's own transaction). It answers ${code("{ok: true, result}")} with the status REST gives (a delete answers 200 with ${code("result: null")}), or ${code("{ok: false, error}")} with the problem and its status.`,
    `- ${code("/api/mcp")} is a stateless Streamable HTTP MCP server with the same tools and the same Bearer token. Results carry ${code("structuredContent")} and a text block in which member-written data is fenced as untrusted; a tool whose answer is not an object (a delete) is answered as ${code("{result: …}")} there.`,
    `- MCP answers what it cannot run with JSON-RPC 2.0's errors: a body that is not JSON is HTTP 400 ${code(String(ErrorCode.ParseError))}; JSON that is no JSON-RPC message (${code("jsonrpc")} other than ${code('"2.0"')}, a null id, params that are not an object) is HTTP 400 ${code(String(ErrorCode.InvalidRequest))}; a request whose params its method does not take (a ${code("tools/call")} without ${code("name")}, or whose ${code("arguments")} are not an object) is ${code(String(ErrorCode.InvalidParams))} with a one-line message, and so is an unknown tool and any ${code("tools/list")} cursor: the list is one page, without ${code("nextCursor")}. A tool that runs and fails, or is refused, is a result with ${code("isError: true")} carrying the problem. JSON-RPC batches (an array) exist only before MCP ${FIRST_WITHOUT_BATCHES}: with ${code("MCP-Protocol-Version")} ${FIRST_WITHOUT_BATCHES} or later an array is HTTP 400 ${code(String(ErrorCode.InvalidRequest))}; with an earlier version, or none (the server then assumes ${DEFAULT_NEGOTIATED_PROTOCOL_VERSION}), it is answered with an array.`,
    `- OpenAI strict mode makes every property required: optional arguments become nullable, and invoke with ${code('"format": "openai"')} reads a null for a property that is not itself nullable as "left out".`,
    `- **Browser tools** (directives) do not run on the server: invoke answers ${code("{ok: true, directive}")} and the browser carries it out (play a song, listen on the microphone after asking, open a page) with the framework-free module ${code("clients/directives")}. Each has its own entry in this reference; their answers' schemas are ${code("x-directives")}.`,
    "",
    `Every tool, with its operation (search this reference for a tool's name to find it; [/docs/tools](/docs/tools) shows each tool's schemas as an assistant sees them):`,
    "",
    "| Tool | What it does | REST | Scope |",
    "|---|---|---|---|",
    ...rows,
  ].join("\n");
}

function requests(): string {
  return [
    `- Bodies are JSON (${code("application/json")} or any ${code("+json")} type; ${status("unsupported_media_type")} otherwise), at most ${MAX_BODY_BYTES} bytes (${status("payload_too_large")}), and must parse as UTF-8 JSON (${status("malformed_request")}). A refused body writes nothing.`,
    '- JSON is UTF-8 (RFC 8259): a Content-Type with no charset, or charset=utf-8 (any case, quoted or not; "utf8" too), is read as UTF-8; any other charset (latin1, utf-16, …) is 415 unsupported_media_type, never decoded as UTF-8 behind the client\'s back.',
    `- Bodies are sent unencoded: a Content-Encoding other than identity (gzip, br, …) is 415 ${code("unsupported_media_type")} with ${code("Accept-Encoding: identity")}, on REST, invoke and MCP alike; the server decodes no content coding, so the 1 MiB limit is on what it parses.`,
    `- A body refused by its Content-Length, Content-Type or Content-Encoding (413, 415) is answered before it is read. Any answer given before the request's body has been read to its end carries Connection: close; the server then reads and drops what is still coming, up to ${DRAIN_LIMIT.bytes / MAX_BODY_BYTES} MiB or ${DRAIN_LIMIT.ms / 1000} s, before closing, so a client still sending reads the answer instead of a reset connection.`,
    `- Browser apps on another origin may call ${code("/api/v1")} and ${code("/api/agent")} when the operator lists that origin in ${code("CORS_ORIGINS")}; only with a Bearer token (credentials are never allowed). ${code("OPTIONS")} answers the verbs this document lists for the path.`,
    `- The code samples use plain ${code("fetch")} (Node 20 or later, or a browser) and Python's requests, so they run as shown. This repository also has a typed client, ${code("clients/typescript")} (openapi-fetch with types generated from this document); it is not published to npm, so use it from inside the repository (its tests show how) or copy it.`,
  ].join("\n");
}

/** The entries, in the order the navigation shows them. */
export function guideEntries(): GuideEntry[] {
  const entries: [string, () => string][] = [
    ["Getting started", gettingStarted],
    ["Authentication", authentication],
    ["Credential limits", credentialLimits],
    ["Errors", errors],
    ["Pagination", pagination],
    ["Idempotency", idempotency],
    ["Rate limits", rateLimits],
    ["Tools", tools],
    ["Requests and browsers", requests],
  ];
  return entries.map(([title, body]) => ({ title, slug: scalarSlug(title), markdown: body() }));
}

const typeOf = (schema: JsonSchema): string => {
  const type = schema.type ?? (schema.format ? "string" : "");
  return [Array.isArray(type) ? type.join(" | ") : String(type), schema.format ? String(schema.format) : ""]
    .filter(Boolean)
    .join(", ");
};

/**
 * The reference entry of a tool that has no REST operation (a browser directive): a tag of its own,
 * named by the tool, so Scalar's navigation lists it and its search finds it by name and by what it
 * does. Opens with the tool's own description, which is what a search result shows.
 */
export function toolOnlyTag(c: Capability): { name: string; description: string } {
  const input = referenceSchemas(c).input;
  const properties = (input.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(input.required) ? (input.required as string[]) : []);
  const example = { tool: c.tool, input: exampleOf(input) };
  return {
    name: c.tool,
    description: [
      c.description,
      "",
      `A tool without a REST route${c.source.kind === "directive" ? ", carried out in the member's browser" : ""}: run it with ${code("POST /api/agent/invoke")} or MCP ${code("tools/call")}, with a token holding ${acceptedScopes(c).map(code).join(" or ")}.${c.source.kind === "directive" ? ` It answers ${code("{ok: true, directive}")}, the ${code(String(c.source.directive.directive.shape.type.value))} directive of ${code("x-directives")}, which ${code("clients/directives")} carries out.` : ""} Its schemas, as an assistant sees them: [/docs/tools#tool-${c.tool}](/docs/tools#tool-${c.tool}).`,
      "",
      "Input:",
      "",
      ...Object.entries(properties).map(
        ([name, schema]) =>
          `- ${code(name)} (${typeOf(schema)}${required.has(name) ? ", required" : ""}): ${String(schema.description ?? "")}`,
      ),
      "",
      "```sh",
      'curl -X POST "$PDS_URL/api/agent/invoke" \\',
      '  -H "Authorization: Bearer $PDS_TOKEN" \\',
      '  -H "Content-Type: application/json" \\',
      `  -d '${JSON.stringify(example).replace(/'/g, "'\\''")}'`,
      "```",
    ].join("\n"),
  };
}
