import { createHmac, timingSafeEqual } from "node:crypto";

/** What the local storage route's signature covers: the key, the expiry, and the exact type and size. */
export interface SignedPut {
  key: string;
  expires: number;
  contentType: string;
  size: number;
}

const canonical = (put: SignedPut) => ["PUT", put.key, put.expires, put.contentType, put.size].join("\n");

export function signPut(secret: Buffer, put: SignedPut): string {
  return createHmac("sha256", secret).update(canonical(put)).digest("base64url");
}

/** Constant-time comparison, so the signature cannot be guessed byte by byte. */
export function verifyPut(secret: Buffer, put: SignedPut, signature: string): boolean {
  const expected = Buffer.from(signPut(secret, put));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The query string of a local upload URL. */
export function putQuery(put: SignedPut, signature: string): URLSearchParams {
  return new URLSearchParams({
    expires: String(put.expires),
    type: put.contentType,
    size: String(put.size),
    signature,
  });
}

/** A download link of the local driver: the key and its expiry, signed with the same secret. */
export interface SignedGet {
  key: string;
  expires: number;
}

const canonicalGet = (get: SignedGet) => ["GET", get.key, get.expires].join("\n");

export function signGet(secret: Buffer, get: SignedGet): string {
  return createHmac("sha256", secret).update(canonicalGet(get)).digest("base64url");
}

export function verifyGet(secret: Buffer, get: SignedGet, signature: string): boolean {
  const expected = Buffer.from(signGet(secret, get));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
