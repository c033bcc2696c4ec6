// What the GIN pending list costs a search, and what going without it costs a new work saved to the catalog:
//   "before": Postgres's default, fastupdate on the catalog's trigram and full-text indexes (new entries wait
//             in a list every scan of the index reads, until VACUUM or an overflow past 4 MB moves them in);
//   "after":  20261129070000_catalog_gin_no_pending_list.sql, fastupdate off (each insert writes the index).
// One seeded catalog (BENCH_CATALOG entries), the two taking turns (ABBA over BENCH_AB_ROUNDS rounds). Each
// turn starts from the seeded catalog with nothing pending (the previous turn's saves deleted, the catalog
// vacuumed), saves BENCH_PENDING_ENTRIES new works one at a time as the resolver saves them (timed as the
// database times each), then runs each search as GET /search runs it (a page of 50) over what those saves
// left: under "before", that many entries pending. The saved titles share no trigram with the searches, so
// the pages stay the seed's and a pending entry costs a search only its reading; pending works that match
// would cost it their checks too. PGlite never vacuums, so there the list grows to 4 MB (several thousand
// entries) and these turns understate it; on the server it is anywhere from none to 4 MB between
// autovacuums, which this script turns off for the catalog so that none runs during a turn.
// Run: BENCH_DATABASES=postgres,pglite BENCH_CATALOG=2000 node bench/gin-pending-ab.ts
import { randomUUID } from "node:crypto";
import { createMember } from "../lib/auth/members.ts";
import { searchPage } from "../lib/catalog/search-query.ts";
import { asMember, asService, getDb } from "../lib/db/index.ts";
import { draftOf, timedUpsert } from "./catalog-upsert.ts";
import { settings } from "./config.ts";
import { createTarget } from "./databases.ts";
import { beforeAfter, installer, takeTurnsOn, turnsLine, type Variant } from "./driver-ab.ts";
import { migrationText } from "./migration-sql.ts";
import { seedCatalog } from "./seed.ts";
import { median } from "./stats.ts";

const ROUNDS = Number(process.env.BENCH_AB_ROUNDS) || 6;
const PENDING = Number(process.env.BENCH_PENDING_ENTRIES) || 1000;
const QUERIES = process.env.BENCH_SEARCH_QUERIES?.split(",") ?? ["midnight", "midn", "midnight comet", "midnigth"];
const INDEXES = ["public.catalog_entries_search_trgm_idx", "public.catalog_entries_search_fts_idx"];

const switchTo = installer({
  before: INDEXES.map((index) => `alter index ${index} reset (fastupdate);`).join("\n"),
  after: migrationText("20261129070000_catalog_gin_no_pending_list"),
});
/** The previous turn's saves (drafts name them in the "bench" namespace) gone, and vacuumed away with their
 * dead rows, which also empties the pending list. */
async function resetCatalog(): Promise<void> {
  await asService((tx) =>
    tx.query(
      `delete from public.catalog_entries
        where id in (select entry_id from public.catalog_external_ids where namespace = 'bench')`,
    ),
  );
  await (await getDb()).query(
    "vacuum public.catalog_entries, public.catalog_search_words, public.catalog_external_ids",
  );
}
/** "Saved" and hex digits, which hold none of the searches' trigrams. */
const savedTitle = () => `Saved ${randomUUID().slice(0, 8)} ${randomUUID().slice(24)}`;

for (const name of settings.databases) {
  const target = await createTarget(name);
  try {
    await target.open();
    await seedCatalog(settings.catalogEntries);
    await asService((tx) => tx.query("alter table public.catalog_entries set (autovacuum_enabled = false)"));
    const member = await createMember({ email: `gin${Date.now()}@x.example`, handle: `gin${Date.now()}` });
    const saves: Record<Variant, number[]> = { before: [], after: [] };
    const turns = await takeTurnsOn(target, {
      rounds: ROUNDS,
      kinds: QUERIES,
      switchTo,
      prepare: async (variant) => {
        await resetCatalog();
        const times: number[] = [];
        for (let i = 0; i < PENDING; i++) times.push(await timedUpsert(draftOf(randomUUID(), savedTitle())));
        saves[variant].push(median(times));
      },
      run: (query) => asMember(member.id, (tx) => searchPage(tx, { query, domain: null, limit: 50 })),
    });
    console.log(
      `${name} a new work saved, µs the database spends (median of turn medians): ${beforeAfter(saves.before, saves.after, 0)}`,
    );
    console.log(`${name} searches, a page of 50, after ${PENDING} works saved in the turn:`);
    for (const query of QUERIES) console.log(turnsLine(name, query, turns, { rate: "searches/s", call: "search" }));
  } finally {
    await target.drop();
  }
}
process.exit(0);
