import { acceptedScopes, capabilities, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../../registry/capabilities.ts";
import { EXPORT_SECTIONS } from "../../registry/export-sections.ts";
import { operations, resources } from "../../registry/index.ts";
import { LIMIT_RULES } from "../../registry/limits.ts";
import { EMAIL_WIDE_FACTOR, FREE_FAILURES } from "../auth/sessions-throttle.ts";
import { SCOPES } from "../../registry/scopes.ts";
import { PROBLEM_CODES } from "../http/problem.ts";

/** The reference's prose, generated from the registry so the decisions it states cannot drift. */
export function documentDescription(): string {
  const scopeRows = SCOPES.map((scope) => {
    const tools = capabilities.filter((c) => acceptedScopes(c).includes(scope)).map((c) => `\`${c.tool}\``);
    return `| \`${scope}\` | ${tools.join(", ") || "—"} |`;
  });
  const errorRows = Object.entries(PROBLEM_CODES).map(
    ([code, { status, title }]) => `| ${status} | \`${code}\` | ${title} |`,
  );
  return [
    "A member's personal data — collections, items, todos, goals, streaks, messages, follows, channels, profile — as one REST API, one assistant tool catalog and one MCP server, all generated from a single registry: a capability is on every surface or on none.",
    "",
    "## Authentication",
    "Send `Authorization: Bearer pds_…` (a personal access token from the settings pages). Each token holds a subset of the eighteen scopes; GET needs `:read`, every other method `:write`, and `:write` does not imply `:read`. A missing, malformed, expired or revoked token is 401; a missing scope is 403 `insufficient_scope`.",
    "",
    "| Scope | Tools and operations |",
    "|---|---|",
    ...scopeRows,
    "",
    "## Credential limits",
    "Beyond its scopes, a token can be limited when the member makes it (Settings → Tokens, or `token create` on the CLI); an OAuth grant takes the same limits on its consent page. The limits only narrow what the scopes allow, and the tool catalog (`/api/agent/tools`, MCP `tools/list`) lists only what they let through.",
    "- **Only these collections**: the store itself (row-level security) hides every other collection and its items from the token: a get, update or delete of one is 404, lists and the export leave them out, another member's public collection is invisible too, and an item cannot be written into or moved to a collection outside the list (403 `write_refused`). Creating a collection is refused (403 `collection_limited`): the new collection would fall outside the list, and a token never widens its own reach; the member creates it and makes a token that includes it.",
    "- **Read-only**: every write (an operation whose scopes are all `:write`) is 403 `read_only_credential`; the catalog lists only the reads.",
    "- **Confirm deletes**: a delete tool (invoke or MCP) deletes nothing and answers a `confirm_delete` directive (invoke: 202 `{ok: true, directive}`) whose `url` opens Settings → Confirmations, where the signed-in member sees the row and confirms; only then is it deleted, as the member. The same delete over REST is 403 `confirmation_required` (nothing is deleted; the detail names the page, where the request waits like a tool's): a REST client reads 2xx as done, and this is not done. A delete the token could not make anyway answers as it would (404, 403 `write_refused`) and holds nothing. Held deletes lapse after 7 days.",
    "- **Only these tools**: any other tool, and the REST operation that is the same capability, is 403 `tool_not_allowed`.",
    "",
    "## Errors",
    "Every error is `application/problem+json` (RFC 9457) with `code` and `request_id`; 422 adds `errors[]` with JSON Pointers into the input, refused writes add the store's `reason`. A change or delete of a record the member can read but not change (another member's public collection or channel, a follow of which the member is the followee) is 403 `write_refused` with `reason.code` `not_owner`; a record the member cannot read at all is 404, as on GET. Every response carries `Request-Id`. A method a path does not offer is 405 with `Allow`. A problem's `type` is `/docs/errors#<code>`, where every code is explained.",
    "",
    "| Status | code | Title |",
    "|---|---|---|",
    ...errorRows,
    "",
    "## Lists",
    `Lists answer \`{data, has_more, next_cursor}\`, newest first, ${DEFAULT_PAGE_SIZE} per page by default and at most ${MAX_PAGE_SIZE} (\`limit\` above that is 422, never silently clamped). Pass \`next_cursor\` as \`after\` for the next page; the \`Link: <…>; rel="next"\` header carries the same URL. Cursors are opaque and stable under concurrent inserts. Every list takes \`limit\` and \`after\`, also one that is always short (\`/collection-types\`).`,
    "",
    "## Export",
    "`GET /export` answers what the token's read scopes allow; any one read scope lets it run, and `manifest.json` lists in `omitted` each part left out with the scope that would include it. A token without any read scope is 403 `insufficient_scope`.",
    "",
    "| Document | Part | Read scope |",
    "|---|---|---|",
    ...EXPORT_SECTIONS.map(
      (s) => `| \`${s.file}\` | ${s.purpose ? `uploads for ${s.purpose}` : s.resource} | \`${s.scope}\` |`,
    ),
    "",
    "## Limits",
    ...LIMIT_RULES.map((rule) => `- ${rule}`),
    `- Sign-in to the settings pages (a browser form, not this API) is slowed per email and client address: ${FREE_FAILURES} failures are free, then each attempt waits a doubling pause (1 s, 2 s, 4 s …, at most 15 minutes) after the last failure; per email alone the same after ${FREE_FAILURES * EMAIL_WIDE_FACTOR}. The client address is the connection's own unless the operator sets \`TRUSTED_PROXY_HOPS\` to the number of proxies in front that append to \`X-Forwarded-For\` (then the entry that many places from the right); on Vercel it is Vercel's \`X-Vercel-Forwarded-For\`. A client's own \`X-Forwarded-For\` is never taken at its word.`,
    "",
    "## Clients and browsers",
    '- Every operation shows its call in curl, in JavaScript with the typed client and in Python (requests). The typed client (`clients/typescript`, `@personal-data-service/client`) is `createClient({ baseUrl, token })` over `openapi-fetch` with types generated from this document: `const { data, error } = await pds.GET("/collections", { params: { query: { limit: 20 } } })`, where `error` is the problem+json body.',
    "- Browser apps on another origin may call `/api/v1` and `/api/agent` when the operator lists that origin in `CORS_ORIGINS`; only with a Bearer token (credentials are never allowed). `OPTIONS` answers the verbs this document lists for the path.",
    "",
    "## Assistant surfaces",
    "- `GET /api/agent/tools` lists the capabilities the token's scopes allow as tool definitions (`?format=pds|openai|openai-chat|anthropic|mcp`); `POST /api/agent/invoke {tool, input}` runs one through the same pipeline; `/api/mcp` is a stateless Streamable HTTP MCP server with the same tools and Bearer token. `x-tools` below is the full catalog.",
    "- Browser tools (`x-directives`) do not run on the server: invoke answers `{ok: true, directive}` and the browser carries it out (play a song, listen on the microphone after asking, open a page).",
    "- MCP results carry `structuredContent` and a text block in which member-written data is fenced as untrusted.",
    "- Invoke answers with the status REST gives, except that a delete (REST 204, which has no body) answers 200 with `result: null`.",
    '- OpenAI strict mode makes every property required: optional arguments become nullable, and invoke with `"format": "openai"` reads a null for a property that is not itself nullable as "left out".',
    "- MCP needs an object at the root of `outputSchema` and `structuredContent`: a tool whose answer is not an object (a delete) is answered as `{result: …}` there.",
    "- Directives need `items:read` (play_song reads the catalog; the others are grouped with it so a token without it cannot drive the browser). play_song answers the platforms' own players (`embeds`, built from the links and platform ids the catalog holds: Spotify, YouTube, Apple Music, Deezer, SoundCloud) and the catalog's `preview_url`; when it has neither it answers `playable: false` with a `reason` and the platform `links`, never a search page. A `url` of a work the catalog knows (any platform's link) plays that entry and names it (`title`, `song_id`); a track link it does not know plays from the link's own id; a link of no known platform must be an https audio file, checked by its Content-Type through the SSRF guard, else 422 `not_audio`. The framework-free browser module `clients/directives` carries out every directive.",
    "",
    "## Design decisions",
    ...resources.flatMap((resource) => (resource.rules ?? []).map((rule) => `- **${resource.name}**: ${rule}`)),
    ...operations.flatMap((operation) => (operation.rules ?? []).map((rule) => `- **${operation.name}**: ${rule}`)),
  ].join("\n");
}

export function tagDescription(resource: (typeof resources)[number]): string {
  const lines = [resource.description];
  if (resource.rules?.length) lines.push("", ...resource.rules.map((rule) => `- ${rule}`));
  if (resource.events?.length)
    lines.push("", `Events (for webhooks, declared): ${resource.events.map((e) => `\`${e}\``).join(", ")}.`);
  return lines.join("\n");
}
