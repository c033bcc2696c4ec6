import { hash, randomBytes, timingSafeEqual } from "node:crypto";
import { generateSecret, hashToken, isWellFormedSecret } from "../token-format.ts";

/**
 * OAuth's secrets in the personal access token's shape (random base62 + CRC32, so scanners can
 * recognise them and a mistyped one is refused without a look-up), under prefixes of their own.
 */
export const ACCESS_PREFIX = "pdsoa_";
export const REFRESH_PREFIX = "pdsor_";

export const newAccessToken = () => generateSecret(ACCESS_PREFIX);
export const newRefreshToken = () => generateSecret(REFRESH_PREFIX);
export const isAccessToken = (token: string) => isWellFormedSecret(token, ACCESS_PREFIX);
export const isRefreshToken = (token: string) => isWellFormedSecret(token, REFRESH_PREFIX);

/** Codes are opaque to everyone: 32 random bytes, base64url. */
export const newCode = () => randomBytes(32).toString("base64url");

/** Every secret is stored only as its SHA-256. */
export const secretHash = hashToken;

/** PKCE S256 (RFC 7636 §4.6): BASE64URL(SHA256(ASCII(code_verifier))) equals the stored challenge. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  // RFC 7636 §4.1: 43 to 128 unreserved characters.
  if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) return false;
  const computed = Buffer.from(hash("sha256", verifier, "base64url"));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
