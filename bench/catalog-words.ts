// What a catalog write costs before and after 20261128191500_catalog_words_follow_changes.sql, on one seeded
// catalog, the two versions taking turns (ABBA over BENCH_AB_ROUNDS rounds) so this machine's drift falls on
// both alike:
//   "before": 20261128081000's word triggers, which delete and make again the words of every entry an insert
//             or update statement touched, and 20261126170000's upsert_catalog_entry, which updates a known
//             entry whatever the draft adds;
//   "after":  the migrations as they stand: words made only for an entry whose search columns, domain or
//             popularity changed, none deleted on insert, and no update of an entry the draft adds nothing to.
// Timed as the database times them (EXPLAIN ANALYZE's execution time, triggers included), each call in its own
// committed transaction as the service, as the resolver runs it:
//   known work:  app_private.upsert_catalog_entry of a work the catalog already holds, with nothing new
//                (a member saving a song someone saved before, a provider's answer already stored);
//   new work:    the same function for a work it does not hold yet (an insert);
//   bulk insert: BENCH_WORDS_BULK entries in one statement, rolled back (a catalog import);
//   link update: a column outside the search changed on BENCH_WORDS_UPDATED entries in one statement, rolled
//                back (the statement trigger now reads the old rows as well as the new);
//   both timed through the driver, three calls a turn. On Postgres the database is vacuumed after each turn.
// Run: BENCH_DATABASES=postgres,pglite BENCH_CATALOG=100000 node bench/catalog-words.ts
import { randomUUID } from "node:crypto";
import { asService, getDb } from "../lib/db/index.ts";
import { draftOf, timedUpsert } from "./catalog-upsert.ts";
import { settings } from "./config.ts";
import { createTarget } from "./databases.ts";
import { alternate, beforeAfter, settleSeeded } from "./driver-ab.ts";
import { migrationFunction, migrationText } from "./migration-sql.ts";
import { seedCatalog } from "./seed.ts";
import { median } from "./stats.ts";

const ROUNDS = Number(process.env.BENCH_AB_ROUNDS) || 4;
const CALLS = Number(process.env.BENCH_WORDS_CALLS) || 200;
const BULK = Number(process.env.BENCH_WORDS_BULK) || 10_000;
const UPDATED = Number(process.env.BENCH_WORDS_UPDATED) || 1_000;
const KNOWN = 50;

/** A migration's create statements for the two word triggers, as it wrote them. */
const triggersOf = (sql: string) => sql.match(/create trigger catalog_entries_search_words_\w+[\s\S]*?;/g) ?? [];

const BEFORE_WORDS_FILE = "20261128081000_catalog_search_words_per_statement";
const AFTER_FILE = "20261128191500_catalog_words_follow_changes";
const BEFORE_WORDS = migrationText(BEFORE_WORDS_FILE);
const AFTER = migrationText(AFTER_FILE);
const VARIANTS = {
  before: [
    migrationFunction(BEFORE_WORDS_FILE, "app_private.catalog_search_words_refresh"),
    ...triggersOf(BEFORE_WORDS),
    migrationFunction("20261126170000_catalog_upgrade_takes_draft_domain", "app_private.upsert_catalog_entry"),
  ],
  after: [...triggersOf(AFTER), migrationFunction(AFTER_FILE, "app_private.upsert_catalog_entry")],
} as const;
type Variant = keyof typeof VARIANTS;
for (const [name, statements] of Object.entries(VARIANTS))
  if (statements.filter((s) => s.startsWith("create trigger")).length !== 2)
    throw new Error(`${name}: not two triggers`);

const switchTo = (variant: Variant) =>
  asService(async (tx) => {
    await tx.query("drop trigger catalog_entries_search_words_insert on public.catalog_entries");
    await tx.query("drop trigger catalog_entries_search_words_update on public.catalog_entries");
    for (const statement of VARIANTS[variant]) await tx.query(statement);
  });

const upsert = (key: string) => timedUpsert(draftOf(key, `Lantern harbour ${key.slice(0, 8)}`));

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return (performance.now() - start) * 1000;
}

/** One statement in a transaction rolled back afterwards, timed through the driver. */
const rolledBackStatement = (sql: string, params: unknown[]) => async () => {
  const db = await getDb();
  const rollback = new Error("roll back");
  let micros = 0;
  await db
    .transaction(async (tx) => {
      micros = await timed(() => tx.query(sql, params));
      throw rollback;
    })
    .catch((error: unknown) => {
      if (error !== rollback) throw error;
    });
  return micros;
};

const bulkInsert = rolledBackStatement(
  `insert into public.catalog_entries (domain, title, subtitle)
   select 'music', 'Bulk ' || md5(g::text), 'Importer ' || (g % 97) from generate_series(1, $1::int) g`,
  [BULK],
);
// A column outside the search (platform links, as a seed-ids migration or a merge writes them), on many entries.
const linkUpdate = rolledBackStatement(
  `update public.catalog_entries
      set platform_links = platform_links || '{"bench": {"url": "https://example.test/", "source": "bench"}}'
    where id in (select id from public.catalog_entries order by id limit $1::int)`,
  [UPDATED],
);

const KINDS = ["known work", "new work", "bulk insert", "link update"] as const;
const BULK_KINDS = new Set<string>(["bulk insert", "link update"]);

for (const name of settings.databases) {
  const target = await createTarget(name);
  try {
    await target.open();
    await seedCatalog(settings.catalogEntries);
    const known = Array.from({ length: KNOWN }, () => randomUUID());
    for (const key of known) await upsert(key);
    await settleSeeded(target);
    const turns: Record<string, number[]> = {};
    let n = 0;
    const runs: Record<(typeof KINDS)[number], () => Promise<number>> = {
      "known work": () => upsert(known[n++ % KNOWN] as string),
      "new work": () => upsert(randomUUID()),
      "bulk insert": bulkInsert,
      "link update": linkUpdate,
    };
    await alternate(ROUNDS, switchTo, async (variant) => {
      for (const kind of KINDS) {
        const calls = BULK_KINDS.has(kind) ? 3 : CALLS;
        await runs[kind]();
        const times: number[] = [];
        for (let i = 0; i < calls; i++) times.push(await runs[kind]());
        const key = `${kind}|${variant}`;
        turns[key] = [...(turns[key] ?? []), median(times)];
      }
      // The rolled-back statements leave dead rows and index entries: cleared before the next turn, so
      // neither version meets more of them than the other (Postgres; nothing for PGlite, in this process).
      await target.settle();
    });
    for (const kind of KINDS) {
      const unit = BULK_KINDS.has(kind) ? 1000 : 1;
      const of = (variant: Variant) => (turns[`${kind}|${variant}`] ?? []).map((v) => v / unit);
      console.log(
        `${name} ${kind}${kind === "bulk insert" ? ` (${BULK})` : kind === "link update" ? ` (${UPDATED})` : ""}: ${unit === 1 ? "µs" : "ms"} a call, median of turn medians: ` +
          beforeAfter(of("before"), of("after"), 0),
      );
    }
  } finally {
    await target.drop();
  }
}
process.exit(0);
