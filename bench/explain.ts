import { asMember, type Queryable, queryOnly } from "../lib/db/index.ts";
import { searchCatalog } from "../lib/catalog/search-query.ts";
import { handlerFor } from "../lib/domain/handlers.ts";
import { capability } from "./ceiling.ts";

/**
 * EXPLAIN (ANALYZE, BUFFERS) of a list exactly as the API runs it: the generic handler's own SQL
 * and parameters, recorded on their way to the driver, then explained inside the same member
 * transaction (so the plan includes the RLS policies the member is under).
 */
export async function explainList(tool: string, memberId: string): Promise<string> {
  const cap = capability(tool);
  const handler = cap && handlerFor(cap);
  if (!cap || !handler) throw new Error(`${tool} is missing from the registry`);
  return asMember(memberId, async (tx) => {
    const seen: { sql: string; params: readonly unknown[] }[] = [];
    // Every statement, the last one included, runs as query(): the EXPLAIN below needs the transaction.
    const record: Queryable["query"] = (sql, params = []) => {
      seen.push({ sql, params });
      return tx.query(sql, params);
    };
    const recorder: Queryable = queryOnly(record);
    await handler({ memberId, scopes: new Set(), tx: recorder, input: {}, capability: cap });
    const [list] = seen;
    if (!list) throw new Error(`${tool} ran no query`);
    const rows = await tx.query<{ "QUERY PLAN": string }>(`explain (analyze, buffers) ${list.sql}`, list.params);
    return rows.map((row) => row["QUERY PLAN"]).join("\n");
  });
}

/** searchCatalog's parameters: query, domain, limit + 1, the cursor's score and id. */
const TYPES = ["text", "text", "int", "numeric", "uuid"];

/**
 * EXPLAIN (ANALYZE, BUFFERS) of each statement a search runs (lib/catalog/search-query.ts) for a
 * member, as GET /search runs them: recorded on their way to the driver, then, after the search's
 * own settings statement again, each explained in the same transaction with the same parameters.
 * Keyed by the statement's order; the settings statement (the first) is left out.
 */
export async function explainSearch(memberId: string, query: string): Promise<string[]> {
  return asMember(memberId, async (tx) => {
    const seen: { sql: string; params: readonly unknown[] }[] = [];
    const recorder: Queryable = queryOnly((sql, params = []) => {
      seen.push({ sql, params });
      return tx.query(sql, params);
    });
    await searchCatalog(recorder, { query, limit: 20 });
    const [settings, ...statements] = seen.filter((one) => !one.sql.trimStart().startsWith("select set_config"));
    if (!settings) throw new Error("the search ran no statement");
    const plans: string[] = [];
    for (const [i, statement] of statements.entries()) {
      await tx.query(settings.sql, settings.params);
      let explain = `explain (analyze, buffers) ${statement.sql}`;
      if (i === 0) {
        // The first statement runs under force_generic_plan (its settings): EXPLAIN of the statement
        // itself would plan it for these values, so it is prepared and its generic plan explained.
        // Sent as a simple query: over the extended protocol its $n would be taken as its own parameters.
        await tx.exec(`prepare bench_search (${TYPES.join(", ")}) as ${statement.sql}`);
        // The values written in (the bench's own): EXECUTE's arguments cannot be protocol parameters here.
        const values = statement.params.map((value, n) =>
          value === null ? "null" : `'${String(value).replaceAll("'", "''")}'::${TYPES[n]}`,
        );
        explain = `explain (analyze, buffers) execute bench_search (${values.join(", ")})`;
      } else {
        // The later ones run once plan_cache_mode is restored: planned for their values.
        await tx.query("select set_config('plan_cache_mode', 'auto', true)");
      }
      const rows = await tx.query<{ "QUERY PLAN": string }>(explain, i === 0 ? [] : statement.params);
      if (i === 0) await tx.query("deallocate bench_search");
      plans.push(rows.map((row) => row["QUERY PLAN"]).join("\n"));
    }
    return plans;
  });
}

/** The plan's verdict in one line: which index answered, or a warning when a table was scanned. */
export function planSummary(plan: string): string {
  const indexes = [...plan.matchAll(/Index (?:Only )?Scan (?:Backward )?using (\S+)/g)].map((m) => m[1]);
  const bitmaps = [...plan.matchAll(/Bitmap Index Scan on (\S+)/g)].map((m) => m[1]);
  // A node the executor never ran (e.g. a policy's sub-plan for rows the member owns) costs nothing.
  const seqScans = [...plan.matchAll(/Seq Scan on (\S+)[^\n]*\(actual time/g)].map((m) => m[1]);
  const time = /Execution Time: ([\d.]+) ms/.exec(plan)?.[1];
  const parts = [];
  if (indexes.length) parts.push(`index ${[...new Set(indexes)].join(", ")}`);
  if (bitmaps.length)
    parts.push(`bitmap ${[...new Set(bitmaps)].join(", ")}${plan.includes("Sort Key") ? " + sort" : ""}`);
  if (seqScans.length) parts.push(`SEQ SCAN ${[...new Set(seqScans)].join(", ")}`);
  if (time) parts.push(`${time} ms`);
  return parts.join("; ");
}
