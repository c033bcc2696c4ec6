import { asMember, type Queryable, queryOnly } from "../lib/db/index.ts";
import { searchCatalog } from "../lib/catalog/search-query.ts";
import { HIT_TYPE, SEARCH_ALL, SEARCH_NEAR, SEARCH_WORDS } from "../lib/catalog/search-sql.ts";
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

/** app_private.search_catalog's statements' parameters: query, domain, page size + 1, the cursor's score and id. */
const TYPES = ["text", "text", "integer", "numeric", "uuid"];

/**
 * EXPLAIN (ANALYZE, BUFFERS) of a search as GET /search runs it for a member: the call of
 * app_private.search_catalog (its whole time), then each statement it ran (lib/catalog/search-sql.ts),
 * under the function's own settings (its SET clauses, read from the catalog): WORDS prepared and its
 * generic plan explained, as the function keeps it; NEAR or ALL, when the page needed one, planned
 * for the query's values as EXECUTE plans them, NEAR at the trigram threshold the page's edge gave.
 */
export async function explainSearch(memberId: string, query: string): Promise<{ label: string; plan: string }[]> {
  return asMember(memberId, async (tx) => {
    const params = [query, null, 21, null, null];
    // Searched once first: the call's time then leaves out compiling the function in this session.
    const { ranked } = await searchCatalog(tx, { query, limit: 20 });
    const call = "select * from app_private.search_catalog($1, $2, $3, $4, $5)";
    const plans = [{ label: "the call", plan: await explain(tx, `explain (analyze, buffers) ${call}`, params) }];
    const [config] = await tx.query<{ settings: string[] }>(
      `select proconfig as settings from pg_proc
        where oid = 'app_private.search_catalog(text, text, integer, numeric, uuid, boolean)'::regprocedure`,
    );
    for (const setting of config?.settings ?? []) {
      const [name, value] = setting.split("=");
      if (name !== "search_path") await tx.query("select set_config($1, $2, true)", [name, value]);
    }
    // Sent as a simple query: over the extended protocol its $n would be taken as its own parameters;
    // and the values written in, as EXECUTE's arguments cannot be protocol parameters here.
    const literal = (value: unknown, n: number) =>
      value === null ? `null::${TYPES[n]}` : `'${String(value).replaceAll("'", "''")}'::${TYPES[n]}`;
    const prepared = async (sql: string, plans: "force_generic_plan" | "force_custom_plan", extra = "") => {
      await tx.query("select set_config('plan_cache_mode', $1, true)", [plans]);
      await tx.exec(`prepare bench_search (${TYPES.join(", ")}${extra ? `, ${HIT_TYPE}[]` : ""}) as ${sql}`);
      const values = [...params.map(literal), ...(extra ? [extra] : [])];
      const text = await explain(tx, `explain (analyze, buffers) execute bench_search (${values.join(", ")})`, []);
      await tx.query("deallocate bench_search");
      return text;
    };
    plans.push({ label: "WORDS", plan: await prepared(SEARCH_WORDS, "force_generic_plan") });
    if (ranked === "all") plans.push({ label: "ALL", plan: await prepared(SEARCH_ALL, "force_custom_plan") });
    if (ranked === "near") {
      // The threshold the function raised both trigram thresholds to: the edge's score − 0.1 − 1e-4.
      const [edge] = await tx.query<{ score: string }>(
        `select score::text as score from (${SEARCH_WORDS.replace(/limit \$3\s*$/, "offset 20 limit 1")}) w`,
        params,
      );
      const near = String(Number(edge?.score) - 0.1 - 1e-4);
      await tx.query(
        "select set_config('pg_trgm.similarity_threshold', $1, true), set_config('pg_trgm.word_similarity_threshold', $1, true)",
        [near],
      );
      plans.push({ label: "NEAR", plan: await prepared(SEARCH_NEAR, "force_custom_plan", `'{}'::${HIT_TYPE}[]`) });
    }
    return plans;
  });
}

async function explain(tx: Queryable, sql: string, params: readonly unknown[]): Promise<string> {
  const rows = await tx.query<{ "QUERY PLAN": string }>(sql, params);
  return rows.map((row) => row["QUERY PLAN"]).join("\n");
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
