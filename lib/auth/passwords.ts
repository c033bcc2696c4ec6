import { argon2 as argon2Callback, randomBytes, scrypt as scryptCallback, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import bcrypt from "bcryptjs";

const argon2 = promisify(argon2Callback);
const scrypt = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

// OWASP's first choice and its minimum parameters for argon2id: 19 MiB, 2 passes, 1 lane.
const ARGON2 = { memory: 19 * 1024, passes: 2, parallelism: 1, tagLength: 32 };

const b64 = (bytes: Buffer) => bytes.toString("base64").replace(/=+$/, "");

async function argon2id(password: string, salt: Buffer, params: typeof ARGON2): Promise<Buffer> {
  return argon2("argon2id", { message: password, nonce: salt, ...params });
}

/**
 * A PHC string, `$argon2id$v=19$m=…,t=…,p=…$salt$hash`, the format GoTrue also reads for imported
 * users, so a hash written here stays valid if the member later moves to Supabase Auth.
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const tag = await argon2id(password, salt, ARGON2);
  return `$argon2id$v=19$m=${ARGON2.memory},t=${ARGON2.passes},p=${ARGON2.parallelism}$${b64(salt)}$${b64(tag)}`;
}

/** True when a stored hash should be replaced by a fresh argon2id hash after a good sign-in. */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith(`$argon2id$v=19$m=${ARGON2.memory},t=${ARGON2.passes},p=${ARGON2.parallelism}$`);
}

/**
 * Verifies argon2id (ours), scrypt (hashes written before argon2id) and bcrypt (what GoTrue writes,
 * for users created by Supabase Auth). With no stored hash the same argon2id work is still spent,
 * so an unknown email is not faster to refuse.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (stored?.startsWith("$2")) return bcrypt.compare(password, stored).catch(() => false);
  if (stored?.startsWith("scrypt$")) return verifyScrypt(password, stored);
  const ok = await verifyArgon2(password, stored ?? DUMMY);
  return stored !== null && ok;
}

async function verifyArgon2(password: string, stored: string): Promise<boolean> {
  const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(stored);
  if (!match) return false;
  const [, m, t, p, salt = "", hash = ""] = match;
  const expected = Buffer.from(hash, "base64");
  const params = { memory: Number(m), passes: Number(t), parallelism: Number(p), tagLength: expected.length };
  if (params.memory > 256 * 1024 || params.passes > 20 || params.parallelism > 16 || expected.length < 16) return false;
  const tag = await argon2id(password, Buffer.from(salt, "base64"), params);
  return timingSafeEqual(tag, expected);
}

async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const [, n, r, p, salt, hash] = stored.split("$");
  if (!salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const key = await scrypt(password, Buffer.from(salt, "base64url"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 64 * 1024 * 1024,
  });
  return timingSafeEqual(key, expected);
}

const DUMMY = `$argon2id$v=19$m=${ARGON2.memory},t=${ARGON2.passes},p=${ARGON2.parallelism}$AAAAAAAAAAAAAAAAAAAAAA$${"A".repeat(43)}`;
