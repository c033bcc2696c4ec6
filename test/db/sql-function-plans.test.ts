import { describe, expect, it } from "vitest";
import { sqlAsService } from "../support/store";

/**
 * A SQL function with a SET clause is never inlined, and Postgres parses and plans its body again at
 * every statement that calls it (a trigger's, a check-in's): 60-80 µs a call where PL/pgSQL keeps the
 * session's plan (20261128223000, 20261129043000). New functions are PL/pgSQL, or SQL without a SET
 * clause so that they inline. The ones left, and why they may stay:
 */
const LEFT = [
  // Catalog writes: once a statement in the words triggers, once an entry in the document trigger; not
  // measured (docs/benchmark.md, "Noticed and left").
  "app_private.catalog_normalize",
  "app_private.catalog_search_words_of",
  // The activity page and undo: one call a page, returning a set.
  "app_private.credential_writes",
  // Folded to their constant when their callers are planned (immutable, no argument).
  "app_private.limit_check_in_max_days_back",
  "app_private.limit_keep_events_days",
];

describe("SQL functions with a SET clause", () => {
  it("are only the ones listed above (each with its reason in a comment)", async () => {
    const rows = await sqlAsService<{ fn: string }>(
      `select n.nspname || '.' || p.proname as fn
         from pg_catalog.pg_proc p
         join pg_catalog.pg_namespace n on n.oid = p.pronamespace
         join pg_catalog.pg_language l on l.oid = p.prolang
        where n.nspname in ('public', 'app_private', 'auth') and l.lanname = 'sql' and p.proconfig is not null
        order by 1`,
    );
    expect(rows.map((row) => row.fn)).toEqual([...LEFT].sort());
  });
});
