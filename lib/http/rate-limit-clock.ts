/**
 * A shift added to the rate limiter's clock, in milliseconds, so tests can let time pass without
 * sleeping. The memory store adds it to Date.now(); the Redis store to Redis's TIME (which stays
 * the clock all instances share). Always 0 outside tests.
 */
export const rateLimitClock = { offsetMs: 0 };
