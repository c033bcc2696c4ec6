// In-process cost of one request, step by step, with no HTTP and no Next: the list and the get
// through handleRest, against the raw transaction of the same SQL and against each step alone.
// Serial loops (one request at a time) so a step's time is its own, not a queue's.
//   BENCH_CATALOG=1000 BENCH_ROWS_PER_MEMBER=100 node bench/steps.ts            (PGlite, in memory)
//   DATABASE_URL=postgres://…/db BENCH_CATALOG=1000 BENCH_ROWS_PER_MEMBER=100 node bench/steps.ts
import { authenticate } from "../lib/http/authenticate.ts";
import { rateLimit } from "../lib/http/rate-limit.ts";
import { asMember, closeDb, getDb } from "../lib/db/index.ts";
import { handlerFor } from "../lib/domain/handlers.ts";
import { withCors } from "../lib/http/cors.ts";
import { handleRest } from "../lib/surfaces/rest.ts";
import { capabilityByTool } from "../registry/capabilities.ts";
import { listPage, withClaims } from "./ceiling.ts";
import { offlineEnv, rateLimitEnv } from "./config.ts";
import { seed } from "./seed.ts";

Object.assign(process.env, rateLimitEnv, offlineEnv);
if (!process.env.DATABASE_URL && !process.env.PGLITE_DIR) process.env.PGLITE_DIR = "memory://steps";

const iterations = Number(process.env.STEPS_ITERATIONS ?? 2000);
/** Requests in flight at once (1: each step's own time; more: what queueing on the database adds). */
const concurrency = Number(process.env.STEPS_CONCURRENCY ?? 1);

async function time(label: string, work: (i: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < Math.min(300, iterations); i++) await work(i);
  const cpu = process.cpuUsage();
  const start = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < iterations) await work(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const ms = (performance.now() - start) / iterations;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000 / iterations;
  console.log(`${label.padEnd(52)} ${ms.toFixed(3).padStart(8)} ms/op   process CPU ${cpuMs.toFixed(3)} ms/op`);
}

const seeded = await seed();
const members = seeded.members;
const pick = (i: number) => members[i % members.length] ?? members[0];
const db = await getDb();
const list = capabilityByTool.get("collections_list");
if (!list) throw new Error("collections_list missing");
const listHandler = handlerFor(list);
const auth = (i: number) => new Headers({ authorization: `Bearer ${pick(i)?.tokens[0]}` });
// The list's SQL before issue 14 (a row per record) and before its fifth pass (the page as one json
// value, parsed); today's is keysetPage's (lib/http/pagination.ts), the page as the answer's text.
const rowsSql = `select to_jsonb(t) as r from (select * from public.collections t where t.owner_id = $1::uuid
  order by t.created_at desc, t.id desc limit 51) t order by t.created_at desc, t.id desc`;
const listSql = `select json_agg(t order by t.created_at desc, t.id desc) as page from (
  select * from public.collections t where t.owner_id = $1::uuid order by t.created_at desc, t.id desc limit 51) t`;

console.log(`${db.kind}: ${members.length} members × ${seeded.members[0]?.collectionIds.length}+ collections`);
await time("raw tx: claims + list SQL", (i) =>
  withClaims(db, pick(i)?.id ?? "", (tx) => listPage(tx, pick(i)?.id ?? "")),
);
await time("raw tx: claims + list SQL as json_agg, parsed", (i) =>
  withClaims(db, pick(i)?.id ?? "", (tx) => tx.query(listSql, [pick(i)?.id])),
);
await time("raw tx: claims + list SQL, a row per record", (i) =>
  withClaims(db, pick(i)?.id ?? "", (tx) => tx.query(rowsSql, [pick(i)?.id])),
);
await time("raw tx: claims + get SQL", (i) =>
  withClaims(db, pick(i)?.id ?? "", (tx) =>
    tx.query("select to_jsonb(t) as r from public.collections t where t.id = $1", [pick(i)?.collectionIds[0]]),
  ),
);
await time("list SQL alone (no tx, no claims)", (i) => db.query(listSql, [pick(i)?.id]));
await time("list SQL alone, a row per record", (i) => db.query(rowsSql, [pick(i)?.id]));
await time("get SQL alone (no tx)", (i) =>
  db.query("select to_jsonb(t) as r from public.collections t where t.id = $1", [pick(i)?.collectionIds[0]]),
);
await time("authenticate (token cache)", (i) => authenticate(auth(i)));
await time("authenticate + rate limit", async (i) => rateLimit(await authenticate(auth(i)), list));
await time("asMember + list handler", (i) =>
  asMember(pick(i)?.id ?? "", (tx) =>
    listHandler({ memberId: pick(i)?.id ?? "", scopes: new Set(), tx, input: {}, capability: list }),
  ),
);
const tokenIds = await Promise.all(members.map(async (_, i) => (await authenticate(auth(i))).tokenId));
await time("asMember(tokenId) + list handler", (i) =>
  asMember(
    pick(i)?.id ?? "",
    (tx) => listHandler({ memberId: pick(i)?.id ?? "", scopes: new Set(), tx, input: {}, capability: list }),
    {
      tokenId: tokenIds[i % members.length],
    },
  ),
);
let body: unknown;
await time("handleRest GET /collections", async (i) => {
  const response = await handleRest(new Request("http://127.0.0.1/api/v1/collections", { headers: auth(i) }), [
    "collections",
  ]);
  if (response.status !== 200) throw new Error(`status ${response.status}: ${await response.text()}`);
  body = await response.arrayBuffer();
});
console.log(`  list body ${(body as ArrayBuffer).byteLength} bytes`);
await time("handleRest GET /collections/{id}", async (i) => {
  const member = pick(i);
  const response = await handleRest(
    new Request(`http://127.0.0.1/api/v1/collections/${member?.collectionIds[0]}`, { headers: auth(i) }),
    ["collections", member?.collectionIds[0] ?? ""],
  );
  if (response.status !== 200) throw new Error(`status ${response.status}`);
  await response.arrayBuffer();
});
const corsList = withCors((request: Request) => handleRest(request, ["collections"]));
const drain = async (response: Response) => {
  const reader = response.body?.getReader();
  for (;;) {
    const { done } = (await reader?.read()) ?? { done: true };
    if (done) break;
  }
};
await time("withCors(handleRest) list, body streamed", async (i) =>
  drain(await corsList(new Request("http://127.0.0.1/api/v1/collections", { headers: auth(i) }))),
);
await time("handleRest list, body streamed", async (i) =>
  drain(await handleRest(new Request("http://127.0.0.1/api/v1/collections", { headers: auth(i) }), ["collections"])),
);
const parsed = JSON.parse(new TextDecoder().decode(body as ArrayBuffer));
await time("JSON.stringify of a list body", async () => JSON.stringify(parsed));
await closeDb();
