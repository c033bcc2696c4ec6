/**
 * A shift added to the rate limiter's clock, in milliseconds, so tests can let time pass without
 * sleeping. The memory store adds it to Date.now(); the Redis store to Redis's TIME (which stays
 * the clock all instances share). Always 0 outside tests.
 *
 * Kept on globalThis beside the store it shifts (lib/http/rate-limit-store.ts): a store made by
 * one module graph must read the shift another graph sets (Next evaluates modules more than once,
 * and a test may load a fresh graph with vi.resetModules).
 */
type Holder = typeof globalThis & { __pdsRateLimitClock?: { offsetMs: number } };
const holder = globalThis as Holder;
holder.__pdsRateLimitClock ??= { offsetMs: 0 };

export const rateLimitClock: { offsetMs: number } = holder.__pdsRateLimitClock;
