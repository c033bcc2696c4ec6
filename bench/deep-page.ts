// What a list page near a member's oldest rows costs with the cursor as plain parameters (before 1583df0) and as
// sub-selects (after): planned for a cursor near the end, the page looked cheaper than the generic plan, so every
// such page was planned again (test/rls/list-plan.test.ts). A member owning BENCH_DEEP_ROWS items; the items list's
// page 10 rows from the oldest, its statement as the handler writes it and with the cursor's sub-selects taken
// out, each run 300 times in a row (after 20 unmeasured) in its own transaction, taking turns over 6 rounds; µs a
// page through the driver, and EXPLAIN ANALYZE's planning and execution time of the "before" statement.
// Run: BENCH_DATABASES=postgres,pglite node bench/deep-page.ts
import { createMember } from "../lib/auth/members.ts";
import { asMember, asService } from "../lib/db/index.ts";
import { encodeCursor } from "../lib/http/pagination.ts";
import { capabilityByTool } from "../registry/capabilities.ts";
import { settings } from "./config.ts";
import { createTarget } from "./databases.ts";
import { recordList } from "./explain.ts";
import { median } from "./stats.ts";

const ROWS = Number(process.env.BENCH_DEEP_ROWS) || 20_000;

async function measure(): Promise<string> {
  const member = await createMember({ email: `deep${Date.now()}@x.example`, handle: `deep${Date.now()}` });
  await asService(async (tx) => {
    await tx.query(
      `with made as (insert into public.collections (owner_id, name, type, created_at)
          select $1, 'C ' || g, 'music', now() - make_interval(secs => g) from generate_series(1, $2::int) g returning id, created_at)
       insert into public.items (owner_id, collection_id, song_id, note, created_at)
       select $1, id, (select id from public.catalog_entries order by id limit 1), 'n', created_at from made`,
      [member.id, ROWS],
    );
    await tx.query("analyze public.items");
  });
  const capability = capabilityByTool.get("items_list");
  if (!capability) throw new Error("no capability");
  const [old] = await asService((tx) =>
    tx.query<{ c: string; id: string }>(
      "select to_json(created_at) #>> '{}' as c, id::text as id from public.items where owner_id = $1 order by created_at, id offset 10 limit 1",
      [member.id],
    ),
  );
  if (!old) throw new Error("no row");
  const after = encodeCursor({ createdAt: old.c, id: old.id });
  const { statement } = await asMember(member.id, (tx) =>
    recordList(tx, capability, member.id, { after }, "public.items"),
  );
  const { sql: afterSql, params } = statement;
  // "$1" and "$2" in the replacement are the pattern's groups: the cursor's two parameters, written plainly.
  const beforeSql = afterSql.replace(/\(\(select (\$\d+::timestamptz)\), \(select (\$\d+::uuid)\)\)/, "($1, $2)");
  if (beforeSql === afterSql) throw new Error("no cursor sub-selects found");
  const N = 300;
  const timeIt = async (sql: string) =>
    asMember(member.id, async (tx) => {
      for (let i = 0; i < 20; i++) await tx.query(sql, params);
      const t = performance.now();
      for (let i = 0; i < N; i++) await tx.query(sql, params);
      return ((performance.now() - t) * 1000) / N;
    });
  const res: Record<string, number[]> = { before: [], after: [] };
  for (let r = 0; r < 6; r++) {
    for (const v of r % 2 ? ["after", "before"] : ["before", "after"]) {
      res[v]?.push(await timeIt(v === "before" ? `${beforeSql} /* b${r} */` : `${afterSql} /* a${r} */`));
    }
  }
  const plan = await asMember(member.id, (tx) =>
    tx.query<{ "QUERY PLAN": string }>(`explain analyze ${beforeSql}`, params),
  );
  const times = plan
    .map((p) => p["QUERY PLAN"])
    .filter((l) => /Planning|Execution/.test(l))
    .join(", ");
  const show = (v: number[]) => v.map((x) => Math.round(x)).join(", ");
  const b = median(res.before ?? []);
  const a = median(res.after ?? []);
  return `before ${Math.round(b)} → after ${Math.round(a)} µs a page (×${(a / b).toFixed(2)}); rounds [${show(res.before ?? [])}] → [${show(res.after ?? [])}]; before: ${times}`;
}

for (const name of settings.databases) {
  const target = await createTarget(name);
  try {
    await target.open();
    console.log(`${name}, ${ROWS} items: ${await measure()}`);
  } finally {
    await target.drop();
  }
}
process.exit(0);
