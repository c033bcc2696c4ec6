import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import { type Env, setting } from "../config/env.ts";

/**
 * The client's address as server.ts decided it, on every request it hands on (a client's own
 * copy is overwritten). The app reads it only when server.ts says it writes it (below): under
 * `next dev` or `next start` a client could send it.
 */
export const CLIENT_ADDRESS_HEADER = "x-pds-client-address";

/** Headers only a proxy should set: without a trusted proxy they are the client's word. */
const FORWARDING_HEADERS = [
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "x-real-ip",
  "forwarded",
];

// Shared through globalThis: Next's bundle holds its own copy of this module, server.ts another.
type Holder = typeof globalThis & { __pdsServerWritesClientAddress?: boolean };

/**
 * TRUSTED_PROXY_HOPS: how many proxies in front of the server append to X-Forwarded-For. 0 (the
 * default) trusts none: the socket's address counts and forwarding headers are dropped. Anything
 * but a whole number from 0 to 10 is refused at start-up rather than guessed.
 */
export function trustedProxyHops(env?: Env): number {
  return setting("TRUSTED_PROXY_HOPS", env);
}

/**
 * The client's address: with `hops` trusted proxies, the hops-th X-Forwarded-For entry from the
 * right (each proxy appends the address it saw, so entries further left are the client's own
 * word); the leftmost when the chain is shorter (every entry then came from a trusted proxy);
 * the socket's address with no trusted proxy, no chain or an entry that is not an address.
 */
export function addressFromChain(
  socketAddress: string | undefined,
  forwardedFor: string | undefined,
  hops: number,
): string {
  const socket = bareAddress(socketAddress ?? "") ?? "unknown";
  if (hops === 0 || !forwardedFor) return socket;
  const chain = forwardedFor
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const entry = chain[Math.max(0, chain.length - hops)];
  return (entry && bareAddress(entry)) ?? socket;
}

/** An IP address without brackets, port or IPv4-mapped prefix, or null when it is none. */
function bareAddress(value: string): string | null {
  let address = value.trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed?.[1]) address = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.indexOf(":"));
  if (address.startsWith("::ffff:") && isIP(address.slice(7)) === 4) address = address.slice(7);
  return isIP(address) ? address : null;
}

/**
 * server.ts, once per request before anything reads it: writes the client's address and, with no
 * trusted proxy, drops the forwarding headers, so neither Next (its server-action origin check
 * reads X-Forwarded-Host) nor our code takes a client's word for its address, host or scheme.
 */
export function settleForwarding(req: IncomingMessage, hops: number): void {
  const forwardedFor = req.headers["x-forwarded-for"];
  req.headers[CLIENT_ADDRESS_HEADER] = addressFromChain(
    req.socket.remoteAddress,
    Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor,
    hops,
  );
  if (hops === 0) for (const name of FORWARDING_HEADERS) delete req.headers[name];
}

/** server.ts, at start-up: from now on CLIENT_ADDRESS_HEADER is its word, not a client's. */
export function serverWritesClientAddress(): void {
  (globalThis as Holder).__pdsServerWritesClientAddress = true;
}

/**
 * The client's address for throttling. On Vercel (VERCEL=1) its own X-Vercel-Forwarded-For, which
 * its edge overwrites; behind server.ts what server.ts decided (socket, or TRUSTED_PROXY_HOPS);
 * otherwise (`next dev`, `next start`) nothing a client cannot forge, so "unknown".
 */
export function clientAddress(headers: Headers, env?: Env): string {
  if (setting("VERCEL", env) === "1") {
    const vercel = bareAddress(headers.get("x-vercel-forwarded-for")?.split(",")[0] ?? "");
    if (vercel) return vercel;
  }
  if ((globalThis as Holder).__pdsServerWritesClientAddress) return headers.get(CLIENT_ADDRESS_HEADER) || "unknown";
  return "unknown";
}
