/** Injectable for tests of retries, rotation windows and disabling; the database's clock is not used for them. */
export const webhookClock = { now: (): Date => new Date() };
