import { authenticateToken } from "../lib/auth/tokens.ts";
import { type Actor, asMember, closeDb, type Database, getDb, type Transaction } from "../lib/db/index.ts";
import { pageColumns } from "../lib/domain/crud.ts";
import { handlerFor } from "../lib/domain/handlers.ts";
import { keysetPage } from "../lib/http/pagination.ts";
import { collections } from "../registry/resources/collections.ts";
import { type Capability, capabilityByTool } from "../registry/capabilities.ts";
import type { Scope } from "../registry/scopes.ts";
import { settings } from "./config.ts";
import type { CpuSource } from "./cpu.ts";
import type { Seeded } from "./seed.ts";
import { closedLoop, type Measurement } from "./stats.ts";
import { warmUntilSteady } from "./warm-up.ts";

export const RAW_LABEL = "raw loop: driver transaction, claims + list SQL";
export const UNPREPARED_LABEL = "raw loop, PGlite's own query() (unprepared)";
export const THREAD_LABEL = "raw loop through the driver's worker thread";

const COLUMNS = pageColumns(collections);

/** The raw loop's transaction: the member's claims, then fn's statements, on the driver itself. */
export function withClaims<T>(db: Database, memberId: string, fn: (tx: Transaction) => Promise<T>): Promise<T> {
  const claims = JSON.stringify({ sub: memberId, role: "authenticated" });
  return db.transaction(async (tx) => {
    await tx.query("select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)", [
      claims,
    ]);
    return fn(tx);
  });
}

/**
 * The list's SQL and its end (lib/http/pagination.ts): the member's collections as the answer's
 * JSON text, ROLLBACK sent with it. Its data is left unread, as REST leaves it.
 */
export const listPage = (tx: Transaction, memberId: string) =>
  keysetPage(tx, { from: "public.collections", where: ["t.owner_id = $1::uuid"], params: [memberId] }, {}, COLUMNS);

export function capability(tool: string): Capability | undefined {
  return capabilityByTool.get(tool);
}

/**
 * A tool's handler as the pipeline's own database step runs it: in the member's transaction (with the actor's
 * claims, which the events and the ledger read), the same SQL and row mapping, no HTTP and no validation.
 * `scopes` are the credential's, for the handlers that check one themselves (undo).
 */
export function memberHandler(
  tool: string,
  actor?: Actor,
  scopes: ReadonlySet<Scope> = new Set(),
): (memberId: string, input?: Record<string, unknown>) => Promise<unknown> {
  const cap = capability(tool);
  const handler = cap && handlerFor(cap);
  if (!cap || !handler) throw new Error(`${tool} is missing from the registry`);
  return (memberId, input = {}) =>
    asMember(memberId, (tx) => handler({ memberId, scopes, tx, input, capability: cap, actor }), { actor });
}

/**
 * The database's ceiling for the list request: what the same process can do with no HTTP, no
 * token, no validation, at the API's concurrency. The second row adds the token look-up the
 * pipeline does before it, so the table shows what authentication costs on its own.
 */
export async function measureCeiling(seeded: Seeded, dbPids: CpuSource["dbPids"]): Promise<Measurement[]> {
  const list = memberHandler("collections_list");
  const { members } = seeded;
  const pick = (i: number) => members[i % members.length];
  // Each loop warms until level first, as the server rows do: a driver opened anew (PGlite in this
  // process, or on a fresh worker thread) starts with cold code, which a 15-s row would average in.
  const run = async (label: string, work: (i: number) => Promise<void>) => {
    const loop = (seconds: number) => closedLoop(label, settings.connections, seconds, { app: "self", dbPids }, work);
    const warmUp = await warmUntilSteady(loop);
    return { ...(await loop(settings.seconds)), warmUp };
  };
  const db = await getDb();
  // The database's own loop: one transaction with the member's claims and the list's SQL, sent
  // straight to the driver (PGlite's or postgres.js), no pipeline and no HTTP.
  const rawLoop = (label: string) =>
    run(label, async (i) => {
      const memberId = pick(i)?.id ?? "";
      const page = await withClaims(await getDb(), memberId, (tx) => listPage(tx, memberId));
      if (!page.has_more) throw new Error("expected a page with more after it");
    });
  // On PGlite the raw loop is PGlite's own, in this process (PGLITE_THREAD=main, no thread hop);
  // the server runs it on a worker thread, measured through the driver as another row.
  const pglite = db.kind === "pglite";
  const inProcess = { PGLITE_THREAD: "main" };
  return [
    pglite ? await withDriver(inProcess, () => rawLoop(RAW_LABEL)) : await rawLoop(RAW_LABEL),
    ...(pglite
      ? [
          await rawLoop(THREAD_LABEL),
          await withDriver({ ...inProcess, PGLITE_STATEMENTS: "unprepared" }, () => rawLoop(UNPREPARED_LABEL)),
        ]
      : []),
    await run("ceiling: member tx + list 50", async (i) => {
      const page = (await list(pick(i)?.id ?? "")) as { has_more: boolean };
      if (!page.has_more) throw new Error("expected a page with more after it");
    }),
    await run("ceiling + token look-up", async (i) => {
      const member = pick(i);
      const principal = await authenticateToken(member?.tokens[0] ?? "");
      if (!principal) throw new Error("token refused");
      await list(principal.memberId);
    }),
  ];
}

/**
 * A loop with the driver opened under other settings: PGlite in this process (its own loop), or
 * also with PGlite's own query() (parse and plan per statement, six calls into the wasm: the loop
 * as it ran before the driver prepared statements), measured in the same run.
 */
async function withDriver(env: Record<string, string>, measure: () => Promise<Measurement>): Promise<Measurement> {
  await closeDb();
  Object.assign(process.env, env);
  try {
    await getDb();
    return await measure();
  } finally {
    await closeDb();
    for (const name of Object.keys(env)) delete process.env[name];
    await getDb();
  }
}
