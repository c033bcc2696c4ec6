import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as invokeRoute from "@/app/api/agent/invoke/route";
import * as mcpRoute from "@/app/api/mcp/route";
import * as restRoute from "@/app/api/v1/[...path]/route";
import { asService } from "@/lib/db";
import { capabilities } from "@/registry/capabilities";
import { makeMember } from "../test/support/factories";
import { createRow } from "../test/support/resource-fixtures";
import { resources } from "@/registry";
import { record } from "./report";

// Fuzzing from the registry's input schemas and the published OpenAPI document: every request is
// odd in one or more ways (body, types, strings, numbers, nesting, ids, cursors, headers, sizes).
// Figures: answers of 5xx, requests that hung, and refused requests that changed a row count.

const REQUESTS = Number(process.env.RELIABILITY_FUZZ_REQUESTS ?? 10_000);
const HANG_MS = 10_000;

type Handler = (request: Request, context?: unknown) => Promise<Response>;

interface Target {
  method: string;
  path: string;
  pathParams: string[];
  fields: string[];
}

const VERBS = ["GET", "POST", "PATCH", "PUT", "DELETE"];

/** Lone surrogates cannot be percent-encoded as UTF-8; they travel as U+FFFD, and raw in bodies. */
const enc = (value: string) => encodeURIComponent((value as string & { toWellFormed(): string }).toWellFormed());

const oddString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom(
    "\u0000",
    "a\u0000b",
    "\uFEFF",
    "\u202E evil",
    "😀".repeat(600),
    "\uD800",
    "\uDFFF",
    "e\u0301",
    "%00",
    "../../etc/passwd",
    "' or 1=1 --",
    "<script>",
    "null",
    "NaN",
  ),
  fc.integer({ min: 1000, max: 70_000 }).map((n) => "x".repeat(n)),
);
const oddNumber = fc.oneof(
  fc.constantFrom(
    1e308,
    -1e308,
    2 ** 63,
    -(2 ** 63),
    Number.MAX_SAFE_INTEGER + 2,
    -0,
    0.5,
    1e-320,
    1.2345678901234568e29,
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);
const deep = fc.integer({ min: 50, max: 1_000 }).map((depth) => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
});
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  oddString,
  oddNumber,
  deep,
  fc.constantFrom(null, true, false, [], {}, [null], { $ref: "#" }, { __proto__: { admin: true } }),
  fc.array(oddString, { maxLength: 30 }),
  fc.uuid(),
);
const oddId = fc.oneof(
  fc.uuid(),
  fc.constantFrom(
    "00000000-0000-0000-0000-000000000000",
    "ffffffff-ffff-ffff-ffff-ffffffffffff",
    "not-a-uuid",
    "1",
    "-1",
    "%2e%2e",
    "..",
    "null",
    "%00",
    "%E2%80%AE",
    "a".repeat(5000),
  ),
  fc.string({ minLength: 1, maxLength: 60 }).map(enc),
);
const oddCursor = fc
  .oneof(
    fc.base64String({ maxLength: 80 }),
    fc.string({ maxLength: 80 }),
    fc.constantFrom("W10", "WyIiLCIiXQ", "eyJhIjoxfQ", "=".repeat(600), "WyIyMDI2LTExLTIzIiwieCJd"),
  )
  .map(enc);
const oddQueryValue = fc.oneof(
  fc.constantFrom("0x10", "1e2", "", "-1", "0", "201", "99999999999999999999", "1.5", "NaN", "open", "done", "true"),
  oddString.map((s) => enc(s.slice(0, 200))),
);

const contentType = fc.constantFrom(
  "application/json",
  "application/json; charset=utf-8",
  "application/merge-patch+json",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/json; charset=latin1",
  "",
  "application/jsonx",
  "*/*",
);

function rawBody(target: Target): fc.Arbitrary<string | Uint8Array<ArrayBuffer> | undefined> {
  const object = fc.dictionary(
    fc.oneof(
      fc.constantFrom(...target.fields, "id", "owner_id", "__proto__", "constructor"),
      fc.string({ maxLength: 10 }),
    ),
    oddValue,
    { maxKeys: 6 },
  );
  return fc.oneof(
    { weight: 6, arbitrary: object.map((value) => JSON.stringify(value)) },
    { weight: 2, arbitrary: object.map((value) => JSON.stringify(value).slice(0, -1)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "",
        "{",
        "[",
        "nul",
        "{}}",
        '{"a":1,"a":2}',
        "\uFEFF{}",
        '{"title":"\\ud800"}',
        "1",
        '"string"',
        "[]",
        "null",
      ),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => new Uint8Array(bytes)) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constant(`{"title":"${"a".repeat(1024 * 1024 + 10)}"}`) },
  );
}

function requestFor(
  targets: Target[],
  token: string,
): fc.Arbitrary<{ url: string; init: RequestInit; kind: "rest" | "invoke" | "mcp" }> {
  const rest = fc
    .record({
      target: fc.constantFrom(...targets),
      method: fc.oneof({ weight: 8, arbitrary: fc.constant("") }, { weight: 1, arbitrary: fc.constantFrom(...VERBS) }),
      id: oddId,
      query: fc.array(
        fc.tuple(
          fc.constantFrom("limit", "after", "status", "q", "query", "owner_id", "limit", "x"),
          fc.oneof(oddQueryValue, oddCursor),
        ),
        { maxLength: 3 },
      ),
      type: contentType,
      auth: fc.oneof(
        { weight: 8, arbitrary: fc.constant(`Bearer ${token}`) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            "",
            "Bearer ",
            "Bearer x",
            `Basic ${token}`,
            `Bearer ${token}x`,
            `Bearer ${token.slice(0, -1)}`,
          ),
        },
      ),
      key: fc.option(
        fc.oneof(
          fc.constantFrom('"k"', "k".repeat(300), '"', "a b", ""),
          fc.string({ maxLength: 20 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
        ),
        { nil: undefined },
      ),
      accept: fc.constantFrom("application/json", "*/*", "text/html", "application/xml", ""),
    })
    .chain((base) => rawBody(base.target).map((body) => ({ ...base, body })))
    .map(({ target, method, id, query, type, auth, key, accept, body }) => {
      const path = target.path.replace(/\{\w+\}/g, id);
      const search = query.length ? `?${query.map(([k, v]) => `${k}=${v}`).join("&")}` : "";
      const verb = method || target.method;
      const headers: Record<string, string> = {};
      if (auth) headers.authorization = auth;
      if (type) headers["content-type"] = type;
      if (key !== undefined) headers["idempotency-key"] = key;
      if (accept) headers.accept = accept;
      const hasBody = verb !== "GET" && verb !== "HEAD" && body !== undefined;
      return {
        kind: "rest" as const,
        url: `http://localhost/api/v1${path}${search}`,
        init: { method: verb, headers, body: hasBody ? body : undefined },
      };
    });
  const envelope = fc.record({
    tool: fc.oneof(fc.constantFrom(...capabilities.map((c) => c.tool)), oddString),
    input: fc.oneof(fc.dictionary(fc.string({ maxLength: 10 }), oddValue, { maxKeys: 5 }), oddValue),
  });
  const agent = fc.tuple(envelope, fc.boolean()).map(([value, raw]) => ({
    kind: "invoke" as const,
    url: "http://localhost/api/agent/invoke",
    init: {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: raw ? JSON.stringify(value).slice(0, -2) : JSON.stringify(value),
    },
  }));
  const mcp = fc
    .tuple(
      envelope,
      fc.constantFrom("tools/call", "tools/list", "initialize", "resources/list", "x"),
      fc.oneof(fc.integer(), oddString),
    )
    .map(([value, method, id]) => ({
      kind: "mcp" as const,
      url: "http://localhost/api/mcp",
      init: {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { name: value.tool, arguments: value.input } }),
      },
    }));
  return fc.oneof({ weight: 7, arbitrary: rest }, { weight: 2, arbitrary: agent }, { weight: 1, arbitrary: mcp });
}

async function send(kind: "rest" | "invoke" | "mcp", url: string, init: RequestInit): Promise<Response> {
  const request = new Request(url, init);
  if (kind === "invoke") return invokeRoute.POST(request);
  if (kind === "mcp") return (mcpRoute as unknown as Record<string, Handler>).POST?.(request) as Promise<Response>;
  const segments = new URL(url).pathname
    .replace(/^\/api\/v1\/?/, "")
    .split("/")
    .filter(Boolean);
  // Next hands the route decoded segments; a segment it cannot decode never reaches the route
  // (reliability/http.rel.ts sends those to a real server).
  const decoded = segments.map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  });
  const handler = (restRoute as unknown as Record<string, Handler>)[init.method ?? "GET"];
  if (!handler) return new Response(null, { status: 405 });
  return handler(request, { params: Promise.resolve({ path: decoded }) });
}

async function rowCount(sql: string): Promise<number> {
  const [row] = await asService((tx) => tx.query<{ n: string }>(sql));
  return Number(row?.n ?? 0);
}

describe("fuzzing", () => {
  it(`${REQUESTS} odd requests: no 5xx, no hang, no refused request that changed a row`, async () => {
    const member = await makeMember();
    // Rows to aim at: one of each resource, so ids and cursors have something real beside them.
    for (const resource of resources)
      if (resource.verbs.includes("create")) await createRow(resource, member).catch(() => {});
    const tables = await asService((tx) =>
      tx.query<{ name: string }>(
        `select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname in ('public', 'app_private') and c.relkind = 'r'`,
      ),
    );
    // A refused attempt is recorded in the member's activity by design (status set): that row is the
    // refusal's own record, not a change the request made.
    const counted = (name: string) =>
      name === "public.activity"
        ? `(select count(*) from ${name} where status is null)`
        : `(select count(*) from ${name})`;
    const countSql = `select (${tables.map((t) => counted(t.name)).join(" + ")})::text as n`;
    const targets: Target[] = capabilities.flatMap((capability) =>
      capability.http
        ? [
            {
              method: capability.http.method,
              path: capability.http.path,
              pathParams: [...capability.http.pathParams],
              fields: Object.keys(capability.input.shape),
            },
          ]
        : [],
    );
    // The published document's paths too, so a route the reference names and the registry lost is hit.
    const openapi = await (await send("rest", "http://localhost/api/v1/openapi.json", { method: "GET" }))
      .json()
      .catch(() => null);
    for (const [path, item] of Object.entries((openapi?.paths ?? {}) as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(item)) {
        if (VERBS.includes(method.toUpperCase()))
          targets.push({
            method: method.toUpperCase(),
            path: path.replace(/^\/api\/v1/, ""),
            pathParams: [],
            fields: [],
          });
      }
    }
    const samples = fc.sample(requestFor(targets, member.token), { numRuns: REQUESTS, seed: 20261123 });
    const figures = {
      requests: 0,
      by_status: {} as Record<string, number>,
      server_errors: 0,
      hangs: 0,
      refused_that_changed_rows: 0,
      by_kind: {} as Record<string, number>,
    };
    const problems: string[] = [];
    let before = await rowCount(countSql);
    const started = Date.now();
    for (const sample of samples) {
      let status = 0;
      let timer: NodeJS.Timeout | undefined;
      try {
        const response = await Promise.race([
          send(sample.kind, sample.url, sample.init).then(async (r) => {
            await r.arrayBuffer();
            return r;
          }),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error("hang")), HANG_MS);
          }),
        ]);
        status = response.status;
      } catch (error) {
        if ((error as Error).message === "hang") figures.hangs++;
        else status = 599;
        problems.push(`${sample.kind} ${sample.init.method} ${sample.url.slice(0, 200)}: ${(error as Error).message}`);
      } finally {
        clearTimeout(timer);
      }
      figures.requests++;
      figures.by_kind[sample.kind] = (figures.by_kind[sample.kind] ?? 0) + 1;
      const bucket = `${Math.floor(status / 100)}xx`;
      figures.by_status[bucket] = (figures.by_status[bucket] ?? 0) + 1;
      if (status >= 500) {
        figures.server_errors++;
        if (problems.length < 50)
          problems.push(
            `${status} ${sample.kind} ${sample.init.method} ${sample.url.slice(0, 200)} ${String(sample.init.body ?? "").slice(0, 200)}`,
          );
      }
      const after = await rowCount(countSql);
      if (status >= 400 && after !== before) {
        figures.refused_that_changed_rows++;
        problems.push(`${status} changed rows: ${sample.kind} ${sample.init.method} ${sample.url.slice(0, 200)}`);
      }
      before = after;
    }
    record(process.env.DATABASE_URL ? "fuzzing_on_postgres" : "fuzzing", {
      database: process.env.DATABASE_URL ? "postgres" : "pglite",
      ...figures,
      seconds: Math.round((Date.now() - started) / 1000),
      problems: problems.slice(0, 50),
    });
    expect(problems).toEqual([]);
    expect(figures.requests).toBeGreaterThanOrEqual(Math.min(REQUESTS, 10_000));
  });
});
