import {
  cliMemberToken,
  killHard,
  type ServeRestProcess,
  scratchDatabase as newScratchDatabase,
  startServeRest,
  stopServeRest,
} from "../test/support/serve-rest-process";

/** Server processes and scratch databases for the parts that need real processes to kill. */
export const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";
const ADMIN_URL = process.env.RELIABILITY_ADMIN_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";

const cleanups: (() => Promise<void>)[] = [];

export async function stopAll(): Promise<void> {
  await stopServeRest();
  for (const cleanup of cleanups.splice(0)) await cleanup().catch(() => {});
}

export async function scratchDatabase(): Promise<string> {
  const { url, drop } = await newScratchDatabase(ADMIN_URL, "pds_reliability");
  cleanups.push(drop);
  return url;
}

/** The store a child uses: a server database or an embedded data folder. */
export type StoreEnv = { DATABASE_URL: string } | { PGLITE_DIR: string };

const childEnv = (store: StoreEnv, extra: Record<string, string> = {}) => {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.DATABASE_URL;
  delete env.PGLITE_DIR;
  return { ...env, ...store };
};

/** A member and a token, made by the operator CLI in the store (its own process, as an operator would). */
export function cliToken(store: StoreEnv, scopes: string): string {
  return cliMemberToken(childEnv(store), scopes);
}

export type Server = ServeRestProcess;
export { killHard };

/** scripts/serve-rest.ts: the REST handler `next start` runs, on node:http, without a build. */
export function serve(store: StoreEnv, extra: Record<string, string> = {}): Promise<Server> {
  return startServeRest(childEnv(store, extra), 60_000);
}

export async function call(
  base: string,
  method: string,
  path: string,
  token: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {}
  return { status: response.status, body: parsed };
}
