import { hash, randomInt } from "node:crypto";

/**
 * pds_ + 30 random base62 characters + 6-character base62 CRC32 of those 30: secret scanners can
 * recognise the prefix, and a mistyped token is refused without a database look-up.
 */
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const PREFIX = "pds_";
const BODY_LENGTH = 30;
const CHECK_LENGTH = 6;
export const TOKEN_PATTERN = /^pds_[0-9A-Za-z]{36}$/;

/** How long a new token lives unless the member picks otherwise, and the longest it may. */
export const DEFAULT_TOKEN_DAYS = 90;
export const MAX_TOKEN_DAYS = 366;

export function generateToken(): string {
  return generateSecret(PREFIX);
}

export function isWellFormedToken(token: string): boolean {
  return TOKEN_PATTERN.test(token) && hasValidChecksum(token, PREFIX);
}

/** The same shape under another prefix (OAuth's access and refresh tokens: lib/auth/oauth/secrets.ts). */
export function generateSecret(prefix: string): string {
  let body = "";
  for (let i = 0; i < BODY_LENGTH; i++) body += ALPHABET[randomInt(ALPHABET.length)];
  return `${prefix}${body}${checksum(body)}`;
}

/** A secret of generateSecret(prefix)'s shape whose checksum holds. */
export function isWellFormedSecret(token: string, prefix: string): boolean {
  if (token.length !== prefix.length + BODY_LENGTH + CHECK_LENGTH || !token.startsWith(prefix)) return false;
  const rest = token.slice(prefix.length);
  return /^[0-9A-Za-z]+$/.test(rest) && hasValidChecksum(token, prefix);
}

function hasValidChecksum(token: string, prefix: string): boolean {
  const body = token.slice(prefix.length, prefix.length + BODY_LENGTH);
  return token.slice(prefix.length + BODY_LENGTH) === checksum(body);
}

/** One-shot hash: a third of createHash().update().digest()'s cost, on every request (issue 14). */
export function hashToken(token: string): Buffer {
  return hash("sha256", token, "buffer");
}

/** What the settings page shows: never more than the last four characters. */
export function displayToken(last4: string): string {
  return `${PREFIX}…${last4}`;
}

function checksum(body: string): string {
  let value = crc32(body);
  let out = "";
  for (let i = 0; i < CHECK_LENGTH; i++) {
    out = (ALPHABET[value % 62] ?? "0") + out;
    value = Math.floor(value / 62);
  }
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** Over the body's characters, which TOKEN_PATTERN has already held to ASCII. */
function crc32(ascii: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < ascii.length; i++) crc = (CRC_TABLE[(crc ^ ascii.charCodeAt(i)) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
