// A work saved to the catalog as the resolver saves it (app_private.upsert_catalog_entry as the service, in
// its own committed transaction), timed as the database times it: EXPLAIN ANALYZE's execution time,
// triggers and index writes included, no round trip or commit. Shared by catalog-words.ts and
// gin-pending-ab.ts.
import { asService } from "../lib/db/index.ts";
import { executionMicros } from "./explain.ts";

/** A draft of a song known by one external id (`key`), titled `title`. */
export const draftOf = (key: string, title: string) =>
  JSON.stringify({
    domain: "music",
    title,
    creators: [{ name: "Bench Artist" }],
    external_ids: [{ namespace: "bench", value: key }],
  });

/** The upsert's execution time in µs. */
export const timedUpsert = (draft: string) =>
  asService(async (tx) =>
    executionMicros(
      await tx.query<{ "QUERY PLAN": unknown }>(
        "explain (analyze, format json) select app_private.upsert_catalog_entry($1::jsonb)",
        [draft],
      ),
    ),
  );
