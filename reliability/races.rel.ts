import { describe, expect, it } from "vitest";
import { raceBlockAndFollow } from "../test/support/block-follow-race";
import { record } from "./report";

// Block vs. follow (issue 30): one member's follow request and the other's block at the same
// moment. A survivor is a follow that outlives the committed block; the store serializes the pair,
// so there must be none. On Postgres the two requests run on separate pooled connections.

const RACES = Number(process.env.RELIABILITY_BLOCK_FOLLOW_RACES ?? 200);

describe("block vs. follow races", () => {
  it(`${RACES} races: no follow survives the block`, async () => {
    const figures = await raceBlockAndFollow(RACES);
    const onPostgres = Boolean(process.env.DATABASE_URL);
    record(onPostgres ? "block_follow_races_on_postgres" : "block_follow_races", {
      database: onPostgres ? "postgres" : "pglite",
      ...figures,
    });
    expect(figures.races).toBeGreaterThanOrEqual(200);
    expect(figures.survivors).toBe(0);
  });
});
