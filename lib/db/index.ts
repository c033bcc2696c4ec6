import { dbConfig } from "./config.ts";
import { migrate } from "./migrate.ts";
import type { Actor, Database, Queryable, Transaction } from "./types.ts";

export type { Actor, Database, Queryable, Row, Transaction } from "./types.ts";
export { continuing, queryOnly } from "./types.ts";

type Holder = typeof globalThis & { __pdsDb?: Promise<Database> };
const holder = globalThis as Holder;

/**
 * One database per process, opened lazily (never at import, so `next build` opens none) and kept
 * on globalThis because Next evaluates this module more than once per process.
 */
export function getDb(): Promise<Database> {
  if (!holder.__pdsDb) {
    holder.__pdsDb = openAndMigrate();
    holder.__pdsDb.catch(() => {
      holder.__pdsDb = undefined;
    });
  }
  return holder.__pdsDb;
}

async function openAndMigrate(): Promise<Database> {
  const config = dbConfig();
  const db =
    config.kind === "server"
      ? await (await import("./server-driver.ts")).openServer(config.url)
      : await (await import("./pglite-driver.ts")).openPglite(config.dir);
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

export async function closeDb(): Promise<void> {
  const pending = holder.__pdsDb;
  holder.__pdsDb = undefined;
  if (pending) await (await pending).close();
}

/**
 * Runs fn as the member, the way PostgREST does: role `authenticated` and the member's claims,
 * both transaction-local and set in one statement, so row-level security decides what is reachable.
 * With tokenId, that statement first re-checks that the token is still live (SQLSTATE PDS41 if
 * not): a look-up served from a cache cannot outlive a revoke that committed before this transaction.
 * With collections (a collection-limited credential), the claims carry `limits.collections`, which
 * the collections and items policies read (app_private.credential_collections()).
 * oauthTokenId does the same for an OAuth access token (and its grant).
 */
export async function asMember<T>(
  memberId: string,
  fn: (tx: Transaction) => Promise<T>,
  options: { tokenId?: string; oauthTokenId?: string; collections?: readonly string[]; actor?: Actor } = {},
): Promise<T> {
  const db = await getDb();
  // The actor (who and through which surface) is read by the events and the activity ledger; limits only
  // when the credential has a collections limit, so the common claims stay as short as they were.
  const claims = JSON.stringify(
    options.collections
      ? { sub: memberId, role: "authenticated", actor: options.actor, limits: { collections: options.collections } }
      : { sub: memberId, role: "authenticated", actor: options.actor },
  );
  return db.transaction(async (tx) => {
    // Not awaited before fn runs: a transaction's statements go out in order on its one connection,
    // so fn's first query follows in the same flush, one round trip less (PGlite runs them in turn).
    const check = options.tokenId ? "assert_token_live" : options.oauthTokenId ? "assert_oauth_token_live" : undefined;
    const setUp = check
      ? tx.query(
          `select app_private.${check}($2::uuid),
                  set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`,
          [claims, options.tokenId ?? options.oauthTokenId],
        )
      : tx.query("select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)", [
          claims,
        ]);
    const [, result] = await Promise.all([setUp, fn(tx)]);
    return result;
  });
}

/** The service's own access (tokens, accounts, operators); never reachable with a member's token. */
export async function asService<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
  const db = await getDb();
  return db.transaction(fn);
}
