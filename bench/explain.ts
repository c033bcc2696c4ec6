import { asMember, type Queryable, queryOnly, type Transaction } from "../lib/db/index.ts";
import { searchCatalog } from "../lib/catalog/search-query.ts";
import {
  HIT_TYPE,
  PARAM_TYPES,
  QUERY_VALUE_NAMES,
  QUERY_VALUES,
  CLOSE_THRESHOLD,
  nearThresholdOf,
  SEARCH_CLOSE,
  SEARCH_FAR,
  SEARCH_NEAR,
  SEARCH_TITLES,
  searchWords,
  type WordsShape,
} from "../lib/catalog/search-sql.ts";
import { handlerFor } from "../lib/domain/handlers.ts";
import type { Capability } from "../registry/capabilities.ts";
import { capability } from "./ceiling.ts";

/**
 * A statement's execution time in µs from its `explain (analyze, format json)` rows: as the database times it,
 * every trigger included, no round trip or commit (a driver may hand the JSON plan over as text).
 */
export function executionMicros(rows: readonly { "QUERY PLAN": unknown }[]): number {
  const raw = rows[0]?.["QUERY PLAN"];
  const [plan] = (typeof raw === "string" ? JSON.parse(raw) : raw) as { "Execution Time": number }[];
  if (!plan) throw new Error("no plan");
  return plan["Execution Time"] * 1000;
}

/** One statement with its parameters, as a handler sent it to the driver. */
export interface Statement {
  sql: string;
  params: readonly unknown[];
}

/**
 * A list as the API runs it: the generic handler runs on `tx` (already the member's transaction) with `input`,
 * and its first statement that reads `reads` (a table; by default its first statement) is recorded on its way to
 * the driver, with the handler's answer. Every statement, the last one included, runs as query(), so the
 * transaction stays open for what the caller asks next (an EXPLAIN, a count of plans).
 */
export async function recordList(
  tx: Queryable,
  cap: Capability,
  memberId: string,
  input: Record<string, unknown> = {},
  reads = "",
): Promise<{ statement: Statement; answer: unknown }> {
  let statement: Statement | undefined;
  const record: Queryable["query"] = (sql, params = []) => {
    if (!statement && sql.includes(reads)) statement = { sql, params };
    return tx.query(sql, params);
  };
  const answer = await handlerFor(cap)({ memberId, scopes: new Set(), tx: queryOnly(record), input, capability: cap });
  if (!statement) throw new Error(`${cap.tool} ran no query${reads ? ` reading ${reads}` : ""}`);
  return { statement, answer };
}

/** EXPLAIN of a statement, its plan as text; `options` such as "(analyze, buffers)". */
export const explainStatement = (tx: Queryable, { sql, params }: Statement, options = ""): Promise<string> =>
  explain(tx, `explain ${options} ${sql}`, params);

/**
 * EXPLAIN (ANALYZE, BUFFERS) of a list exactly as the API runs it: the generic handler's own SQL
 * and parameters, recorded on their way to the driver, then explained inside the same member
 * transaction (so the plan includes the RLS policies the member is under).
 */
export async function explainList(tool: string, memberId: string): Promise<string> {
  const cap = capability(tool);
  if (!cap) throw new Error(`${tool} is missing from the registry`);
  return asMember(memberId, async (tx) =>
    explainStatement(tx, (await recordList(tx, cap, memberId)).statement, "(analyze, buffers)"),
  );
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of a search as GET /search runs it for a member: the call of
 * app_private.search_catalog (its whole time), then each statement it ran (lib/catalog/search-sql.ts),
 * under the function's own settings (its SET clauses, read from the catalog): WORDS (the statement for
 * the query's shape) prepared and its generic plan explained, as the function keeps it; then those the
 * page needed (NEAR, or CLOSE and FAR), planned for the query's values as EXECUTE plans them, NEAR at the
 * trigram threshold the page's edge gave, CLOSE at the query's own word threshold. Each is explained
 * alone, without the rows the function hands it from the statement before.
 */
export async function explainSearch(memberId: string, query: string): Promise<{ label: string; plan: string }[]> {
  return asMember(memberId, async (tx) => {
    // Searched once first: the call's time then leaves out compiling the function in this session.
    const { ranked } = await searchCatalog(tx, { query, limit: 20 });
    const call = "select * from app_private.search_catalog($1, $2, $3, $4, $5)";
    const plans = [
      {
        label: "the call",
        plan: await explain(tx, `explain (analyze, buffers) ${call}`, [query, null, 21, null, null]),
      },
    ];
    await withSearchSettings(tx);
    const statement = (sql: string, mode: PlanMode, words?: string) =>
      explainSearchStatement(tx, sql, query, mode, { analyze: true, words });
    const words = searchWords(await wordsShape(tx, query));
    plans.push({ label: "WORDS", plan: await statement(words, "force_generic_plan") });
    const thresholds = (similarity: string, word = similarity) =>
      tx.query(
        "select set_config('pg_trgm.similarity_threshold', $1, true), set_config('pg_trgm.word_similarity_threshold', $2, true)",
        [similarity, word],
      );
    if (ranked === "near") {
      // The threshold the function raised both trigram thresholds to, from the page's edge.
      const page = await runSearchStatement<{ score: string }>(tx, words, query, "force_generic_plan");
      await thresholds(String(nearThresholdOf(Number(page[20]?.score))));
      plans.push({ label: "NEAR", plan: await statement(SEARCH_NEAR, "force_custom_plan", "{}") });
    }
    // An empty page took every way: WORDS, CLOSE and FAR.
    const path = ranked ?? "far";
    if (path === "close" || path === "far") {
      await thresholds(String(CLOSE_THRESHOLD));
      plans.push({ label: "CLOSE", plan: await statement(SEARCH_CLOSE, "force_custom_plan", "{}") });
    }
    if (path === "far") {
      // Back to the query's own thresholds, the function's SET clauses.
      await withSearchSettings(tx);
      plans.push({ label: "FAR", plan: await statement(SEARCH_FAR, "force_custom_plan", "{}") });
    }
    return plans;
  });
}

type PlanMode = "force_generic_plan" | "force_custom_plan";

/** Which WORDS statement the function runs for `query`: whether it is one word, whether it has title candidates. */
export async function wordsShape(tx: Transaction, query: string): Promise<WordsShape> {
  const [computed] = await tx.query<{ v_one_word: boolean }>(QUERY_VALUES, [query]);
  const [probe] = await runSearchStatement<{ titles: boolean }>(tx, SEARCH_TITLES, query, "force_generic_plan");
  return { oneWord: computed?.v_one_word === true, titles: probe?.titles === true };
}

/** The transaction takes app_private.search_catalog's own settings (its SET clauses), search_path aside. */
export async function withSearchSettings(tx: Queryable): Promise<string[]> {
  const [config] = await tx.query<{ settings: string[] }>(
    `select proconfig as settings from pg_proc
      where oid = 'app_private.search_catalog(text, text, integer, numeric, uuid, boolean)'::regprocedure`,
  );
  const settings = config?.settings ?? [];
  for (const setting of settings) {
    const [name, value] = setting.split("=");
    if (name !== "search_path") await tx.query("select set_config($1, $2, true)", [name, value]);
  }
  return settings;
}

/**
 * EXPLAIN of one of the function's statements (lib/catalog/search-sql.ts) for `query`, as the
 * function runs it: prepared, with the query's four values computed as it computes them, and the
 * plan chosen by `mode` (WORDS generic, NEAR and ALL for the values). `words`: NEAR's rows of WORDS.
 */
export async function explainSearchStatement(
  tx: Transaction,
  sql: string,
  query: string,
  mode: PlanMode,
  options: { analyze?: boolean; words?: string } = {},
): Promise<string> {
  const prefix = `explain ${options.analyze ? "(analyze, buffers) " : ""}`;
  const rows = await runSearchStatement<{ "QUERY PLAN": string }>(tx, sql, query, mode, { ...options, prefix });
  return rows.map((row) => row["QUERY PLAN"]).join("\n");
}

/**
 * One of the function's statements, prepared and executed (after `prefix`). The PREPARE goes as a
 * simple query (over the extended protocol its $n would be taken as its own parameters), and the
 * values are written in (EXECUTE's arguments cannot be protocol parameters under EXPLAIN).
 */
async function runSearchStatement<T extends object>(
  tx: Transaction,
  sql: string,
  query: string,
  mode: PlanMode,
  options: { words?: string; prefix?: string } = {},
): Promise<T[]> {
  const [computed] = await tx.query<Record<string, unknown>>(QUERY_VALUES, [query]);
  const values = [query, null, 21, null, null, ...QUERY_VALUE_NAMES.map((name) => computed?.[name] ?? null)];
  const types = [...PARAM_TYPES];
  if (options.words !== undefined) {
    values.push(options.words);
    types.push(`${HIT_TYPE}[]`);
  }
  const literal = (value: unknown, n: number) =>
    value === null ? `null::${types[n]}` : `'${String(value).replaceAll("'", "''")}'::${types[n]}`;
  await tx.query("select set_config('plan_cache_mode', $1, true)", [mode]);
  await tx.exec(`prepare search_statement (${types.join(", ")}) as ${sql}`);
  try {
    return await tx.query<T>(`${options.prefix ?? ""}execute search_statement (${values.map(literal).join(", ")})`);
  } finally {
    await tx.query("deallocate search_statement");
  }
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
