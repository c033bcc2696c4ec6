import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_NEGOTIATED_PROTOCOL_VERSION, ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { DEFAULT_TOKEN_DAYS, MAX_TOKEN_DAYS } from "@/lib/auth/tokens";
import { PROBLEM_CODES } from "@/lib/http/problem";
import { FIRST_WITHOUT_BATCHES, TRANSPORT_REFUSAL } from "@/lib/surfaces/mcp-messages";
import { buildOpenApiDocument } from "@/lib/surfaces/openapi";
import {
  guideEntries,
  insufficientScopeExample,
  referenceTag,
  scalarSlug,
  unauthorizedExample,
} from "@/lib/surfaces/openapi-guide";
import { TOOL_FORMATS } from "@/lib/surfaces/tools";
import { capabilities, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "@/registry/capabilities";
import {
  IDEMPOTENCY,
  LIMIT_HEADERS,
  policyWindowSeconds,
  RATE_LIMIT_ENV,
  RESOLVER_POLICY,
  TOKEN_POLICY,
} from "@/registry/limits";
import { SCOPES } from "@/registry/scopes";
import { api } from "../support/api";
import { makeMember } from "../support/factories";

/**
 * The reference's guide entries (lib/surfaces/openapi-guide.ts): each is a top-level heading of
 * info.description (Scalar's navigation and search), and what it states is what the code does —
 * the constants it quotes, and the answers the API really gives.
 */
type Json = Record<string, any>;
const doc = buildOpenApiDocument() as Json;
const description = String(doc.info.description);
const entries = guideEntries();
const section = (title: string): string => {
  const entry = entries.find((e) => e.title === title);
  if (!entry) throw new Error(`no guide entry "${title}"`);
  return entry.markdown;
};
const withoutRequestId = ({ request_id: _, ...rest }: Json) => rest;
/** The first JSON code block of a section that holds `"code": "<code>"`. */
const exampleIn = (markdown: string, code: string): Json => {
  const block = [...markdown.matchAll(/```json\n([\s\S]*?)\n```/g)]
    .map((m) => JSON.parse(m[1] ?? "null"))
    .find((b) => b?.code === code);
  if (!block) throw new Error(`no ${code} example`);
  return block;
};
const firstList = capabilities.find(
  (c) => c.http?.method === "GET" && c.source.kind === "resource" && c.source.verb === "list",
);
const listPath = firstList?.http?.path ?? "";
const linked = (markdown: string, tool: string) => {
  const c = capabilities.find((x) => x.tool === tool);
  return c?.http ? markdown.includes(`(#tag/${scalarSlug(referenceTag(c))}/${c.http.method}${c.http.path})`) : false;
};

describe("the reference's guide entries", () => {
  it("are top-level sections of the document's description, in Scalar's navigation order", () => {
    const titles = ["Authentication", "Errors", "Pagination", "Idempotency", "Rate limits", "Tools"];
    for (const title of titles) expect(entries.map((e) => e.title)).toContain(title);
    const headings = [...description.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    // The description opens with a heading, so Scalar lists each "## " at the top of its navigation.
    expect(description.startsWith("## ")).toBe(true);
    expect(headings.slice(0, entries.length)).toEqual(entries.map((e) => e.title));
    for (const entry of entries) expect(description).toContain(`## ${entry.title}\n${entry.markdown}\n`);
    expect(new Set(entries.map((e) => e.slug)).size).toBe(entries.length);
    expect(entries.find((e) => e.title === "Rate limits")?.slug).toBe("rate-limits");
  });

  it("Authentication: bearer header, every scope, the token's lifetime, and the 401 and 403 the API really answers", async () => {
    const text = section("Authentication");
    expect(text).toContain("Authorization: Bearer pds_");
    expect(text).toContain(`${SCOPES.length} scopes`);
    for (const scope of SCOPES) expect(text).toContain(`| \`${scope}\` |`);
    expect(text).toContain(`${DEFAULT_TOKEN_DAYS} days`);
    expect(text).toContain(`at most ${MAX_TOKEN_DAYS}`);
    // OAuth for assistants: the page the entry points to exists.
    expect(text).toContain("[Connect an assistant](/docs/connect)");
    expect(fs.existsSync("app/docs/connect/page.tsx")).toBe(true);

    const scope = firstList?.scope ?? "collections:read";
    const denied = unauthorizedExample(scope);
    const unknown = await api("GET", listPath, { token: `pds_${"A".repeat(36)}` });
    expect(unknown.status).toBe(denied.problem.status);
    expect(withoutRequestId(unknown.body)).toEqual(withoutRequestId(denied.problem));
    expect(unknown.headers.get("www-authenticate")).toBe(denied.challenge);
    expect(exampleIn(text, "unauthorized")).toEqual(denied.problem);
    expect(text).toContain(`WWW-Authenticate: ${denied.challenge}`);

    const member = await makeMember({ scopes: SCOPES.filter((s) => s !== scope) });
    const refused = await api("GET", listPath, { token: member.token });
    const expected = insufficientScopeExample(scope);
    expect(refused.status).toBe(expected.problem.status);
    expect(withoutRequestId(refused.body)).toEqual(withoutRequestId(expected.problem));
    expect(refused.headers.get("www-authenticate")).toBe(expected.challenge);
    expect(exampleIn(text, "insufficient_scope")).toEqual(expected.problem);
  });

  it("Errors: the problem+json shape the API answers, every code with its status, and the link to /docs/errors", async () => {
    const text = section("Errors");
    expect(text).toContain("application/problem+json");
    expect(text).toContain("](/docs/errors)");
    for (const [code, { status, title }] of Object.entries(PROBLEM_CODES)) {
      expect(text).toContain(`| ${status} | [\`${code}\`](/docs/errors#${code}) | ${title} |`);
    }
    const member = await makeMember();
    const invalid = await api("POST", "/collections", { token: member.token, body: { name: "", type: "music" } });
    expect(invalid.status).toBe(422);
    const example = exampleIn(text, "invalid_request");
    expect(Object.keys(invalid.body).sort()).toEqual(Object.keys(example).sort());
    expect(Object.keys(invalid.body.errors[0]).sort()).toEqual(Object.keys(example.errors[0]).sort());
    expect(invalid.headers.get("request-id")).toBe(invalid.body.request_id);
  });

  it("Pagination: limit's range and default, the cursor fields, and every paginated operation", async () => {
    const text = section("Pagination");
    expect(text).toContain(`1–${MAX_PAGE_SIZE}, ${DEFAULT_PAGE_SIZE} by default`);
    for (const word of ["`has_more`", "`next_cursor`", "`after`", "`limit`", 'rel="next"'])
      expect(text).toContain(word);
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const operation of Object.values(item as Json) as Json[]) {
        const pages = (operation.parameters ?? []).some((p: Json) => p.$ref === "#/components/parameters/Limit");
        if (pages) expect(linked(text, operation.operationId), `${path} is listed`).toBe(true);
      }
    }
    const member = await makeMember();
    expect((await api("GET", `${listPath}?limit=${MAX_PAGE_SIZE + 1}`, { token: member.token })).status).toBe(422);
    const page = await api("GET", `${listPath}?limit=${MAX_PAGE_SIZE}`, { token: member.token });
    expect(Object.keys(page.body).sort()).toEqual(["data", "has_more", "next_cursor"]);
  });

  it("Idempotency: header, key length, window and lease from the constants; replay and mismatch as the API answers", async () => {
    const text = section("Idempotency");
    expect(text).toContain(`\`${LIMIT_HEADERS.idempotencyKey}\``);
    expect(text).toContain(`1–${IDEMPOTENCY.maxKeyLength} characters`);
    expect(text).toContain(`${IDEMPOTENCY.windowSeconds / 3600} hours`);
    expect(text).toContain(`after ${IDEMPOTENCY.leaseSeconds} s`);
    expect(text).toContain(`\`${LIMIT_HEADERS.replayed}: true\``);
    expect(text).toContain(`${PROBLEM_CODES.idempotency_mismatch.status} \`idempotency_mismatch\``);
    expect(text).toContain(`${PROBLEM_CODES.idempotency_in_flight.status} \`idempotency_in_flight\``);
    for (const c of capabilities.filter((x) => x.creates)) expect(linked(text, c.tool), c.tool).toBe(true);

    const member = await makeMember();
    const headers = { [LIMIT_HEADERS.idempotencyKey]: randomUUID() };
    const body = { name: "Once", type: "music" };
    const first = await api("POST", "/collections", { token: member.token, body, headers });
    const again = await api("POST", "/collections", { token: member.token, body, headers });
    expect(again.status).toBe(first.status);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get(LIMIT_HEADERS.replayed)).toBe("true");
    const other = await api("POST", "/collections", { token: member.token, body: { ...body, name: "Twice" }, headers });
    expect(other.body.code).toBe("idempotency_mismatch");
  });

  describe("Rate limits", () => {
    const saved = process.env[RATE_LIMIT_ENV.tokenCapacity];
    afterEach(() => {
      process.env[RATE_LIMIT_ENV.tokenCapacity] = saved;
    });

    it("states both policies, the headers, 429 with Retry-After and TRUSTED_PROXY_HOPS; the API sends the policy it states", async () => {
      const text = section("Rate limits");
      for (const policy of [TOKEN_POLICY, RESOLVER_POLICY]) {
        expect(text).toContain(
          `| \`"${policy.name}"\` | ${policy.capacity} | ${Math.round(policy.refillPerSecond * 6000) / 100} per minute |`,
        );
      }
      for (const name of [LIMIT_HEADERS.policy, LIMIT_HEADERS.state, LIMIT_HEADERS.retryAfter])
        expect(text).toContain(`\`${name}`);
      expect(text).toContain(`${PROBLEM_CODES.rate_limited.status} \`rate_limited\``);
      expect(text).toContain("Each token has its own buckets");
      expect(text).toContain("`TRUSTED_PROXY_HOPS`");
      // MCP: every method counted, refused as HTTP 429 with a JSON-RPC error (test/limits/mcp-rate-limit.test.ts).
      expect(text).toContain("**MCP** (`/api/mcp`)");
      expect(text).toContain(`JSON-RPC error with code \`${TRANSPORT_REFUSAL}\``);
      expect(text).toContain("`isError: true` carrying the `rate_limited` problem");
      for (const name of Object.values(RATE_LIMIT_ENV)) expect(text).toContain(`\`${name}\``);
      for (const c of capabilities.filter((x) => x.rateLimit === "resolver"))
        expect(linked(text, c.tool), c.tool).toBe(true);

      // With the spec's numbers (the suite raises them), the answer carries the very policy the guide shows.
      delete process.env[RATE_LIMIT_ENV.tokenCapacity];
      const member = await makeMember();
      const answer = await api("GET", listPath, { token: member.token });
      const policy = `"${TOKEN_POLICY.name}";q=${TOKEN_POLICY.capacity};w=${policyWindowSeconds(TOKEN_POLICY)}`;
      expect(answer.headers.get(LIMIT_HEADERS.policy)).toBe(policy);
      expect(text).toContain(`\`${policy}\``);
      expect(answer.headers.get(LIMIT_HEADERS.state)).toMatch(new RegExp(`^"${TOKEN_POLICY.name}";r=\\d+;t=\\d+$`));
    });
  });

  it("Tools: catalog formats, invoke, MCP, directives, and every tool with its operation or its own entry", () => {
    const text = section("Tools");
    for (const format of TOOL_FORMATS) expect(text).toContain(`\`${format}\``);
    for (const route of ["GET /api/agent/tools", "POST /api/agent/invoke", "/api/mcp", "x-directives", "/docs/tools"])
      expect(text).toContain(route);
    // MCP's JSON-RPC errors, as test/surfaces/mcp-jsonrpc.test.ts finds them.
    for (const code of [ErrorCode.ParseError, ErrorCode.InvalidRequest, ErrorCode.InvalidParams])
      expect(text).toContain(`\`${code}\``);
    expect(text).toContain(`exist only before MCP ${FIRST_WITHOUT_BATCHES}`);
    expect(text).toContain(`assumes ${DEFAULT_NEGOTIATED_PROTOCOL_VERSION}`);
    for (const c of capabilities) {
      expect(text).toContain(`| \`${c.tool}\` |`);
      if (c.http) expect(linked(text, c.tool), c.tool).toBe(true);
      else expect(text).toContain(`](#tag/${scalarSlug(c.tool)})`);
    }
  });

  it("every tool is an entry the reference's search indexes: its operation (operationId) or, without one, a tag of its name", () => {
    const operationIds = new Set(
      Object.values(doc.paths as Json).flatMap((item) =>
        Object.values(item as Json).map((op) => (op as Json).operationId),
      ),
    );
    const tags = new Map((doc.tags as Json[]).map((tag) => [tag.name, String(tag.description)]));
    for (const c of capabilities) {
      if (c.http) {
        expect(operationIds.has(c.tool), c.tool).toBe(true);
        continue;
      }
      // Scalar's search reads a tag's name and description; the description opens with the tool's own.
      expect(tags.get(c.tool)?.startsWith(c.description), c.tool).toBe(true);
      expect(tags.get(c.tool)).toContain("POST /api/agent/invoke");
      expect(tags.get(c.tool)).toContain(`/docs/tools#tool-${c.tool}`);
    }
  });
});
