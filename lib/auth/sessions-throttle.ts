/**
 * Slows down password guessing, per email + client address, in this process's memory.
 * The first FREE_FAILURES wrong attempts cost nothing extra; after that each attempt must wait a
 * doubling pause (1 s, 2 s, 4 s … capped at 15 min) after the previous failure, and is refused
 * unchecked inside that pause. The key does not depend on whether the email exists, so the
 * answer does not tell members from strangers. One instance only: behind a load balancer each
 * instance keeps its own count, which multiplies an attacker's budget by the instance count.
 */
export const FREE_FAILURES = 5;
/** The email-alone key (any address) gets this many times the free failures. */
export const EMAIL_WIDE_FACTOR = 4;
const MAX_PAUSE_MS = 15 * 60_000;
const FORGET_AFTER_MS = 60 * 60_000;
const MAX_KEYS = 10_000;

interface Failures {
  count: number;
  lastAt: number;
}

type Holder = typeof globalThis & { __pdsSignInFailures?: Map<string, Failures> };
const holder = globalThis as Holder;
holder.__pdsSignInFailures ??= new Map();
const failures: Map<string, Failures> = holder.__pdsSignInFailures;

export function throttleKey(email: string, address: string): string {
  return `${email.trim().toLowerCase()}|${address}`;
}

/**
 * Milliseconds the caller must still wait before this key may try again (0 = go ahead).
 * `factor` multiplies the free failures, for looser keys such as the email alone.
 */
export function waitBeforeAttempt(key: string, now = Date.now(), factor = 1): number {
  const entry = failures.get(key);
  if (!entry) return 0;
  if (now - entry.lastAt > FORGET_AFTER_MS) {
    failures.delete(key);
    return 0;
  }
  const free = FREE_FAILURES * factor;
  if (entry.count < free) return 0;
  const pause = Math.min(1000 * 2 ** (entry.count - free), MAX_PAUSE_MS);
  return Math.max(0, entry.lastAt + pause - now);
}

export function recordFailure(key: string, now = Date.now()): void {
  const entry = failures.get(key);
  failures.delete(key);
  failures.set(key, { count: (entry?.count ?? 0) + 1, lastAt: now });
  // Oldest first in insertion order: drop the stalest keys so memory stays bounded.
  while (failures.size > MAX_KEYS) {
    const oldest = failures.keys().next().value;
    if (oldest === undefined) break;
    failures.delete(oldest);
  }
}

export function clearFailures(key: string): void {
  failures.delete(key);
}
