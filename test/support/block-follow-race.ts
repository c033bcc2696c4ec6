import { setTimeout as sleep } from "node:timers/promises";
import { asService } from "@/lib/db";
import { blockByHandle } from "@/lib/web/blocks";
import { api } from "./api";
import { makeMember, type TestMember } from "./factories";

/**
 * Block vs. follow races through the real paths, each on a pair of members never raced before: ada
 * asks the API to follow bob (POST /follows with her token) while bob blocks ada from the settings
 * page (the server action's blockByHandle, as bob under RLS). On the Postgres server each side reserves its
 * own pooled connection, so the two transactions really overlap; on PGlite (one connection) they
 * take turns. A survivor is a follow between the two that outlives the committed block.
 */
export interface RaceFigures {
  races: number;
  survivors: number;
  follows_refused: number;
  follows_made_then_ended: number;
  /** Races where the follow's request and the block were both in flight at once. */
  overlapped: number;
}

// Either side starts up to this long after the other: the follow's request does more before its
// insert (token, limits, body) than the block does, so the window where the two meet moves about.
const SPREAD_MS = 6;

// Pairs raced at once: each pair's two requests still meet each other, and the others' keep the
// pool and the database busy the way a loaded service is.
const PAIRS_AT_ONCE = 4;

export async function raceBlockAndFollow(races: number): Promise<RaceFigures> {
  const figures: RaceFigures = {
    races: 0,
    survivors: 0,
    follows_refused: 0,
    follows_made_then_ended: 0,
    overlapped: 0,
  };
  // Each race gets a pair never raced before, drawn from as few members as give enough pairs
  // (making a member is the slow part): n members make n(n-1)/2 pairs.
  const n = Math.ceil((1 + Math.sqrt(1 + 8 * races)) / 2);
  const members: TestMember[] = [];
  while (members.length < n) members.push(...(await Promise.all([makeMember(), makeMember()])));
  const pairs: Array<[TestMember, TestMember]> = [];
  for (let x = 0; x < n && pairs.length < races; x++) {
    for (let y = x + 1; y < n && pairs.length < races; y++) {
      const [a, b] = [members[x], members[y]] as [TestMember, TestMember];
      pairs.push(pairs.length % 2 ? [a, b] : [b, a]);
    }
  }
  for (let first = 0; first < races; first += PAIRS_AT_ONCE) {
    await Promise.all(
      pairs.slice(first, first + PAIRS_AT_ONCE).map(([ada, bob], k) => raceOnce(first + k, ada, bob, figures)),
    );
  }
  return figures;
}

/** ada asks to follow bob while bob blocks ada. */
async function raceOnce(i: number, ada: TestMember, bob: TestMember, figures: RaceFigures): Promise<void> {
  const offset = Math.random() * 2 * SPREAD_MS - SPREAD_MS;
  const spans: Array<{ start: number; end: number }> = [];
  const timed = async <T>(delay: number, work: () => Promise<T>): Promise<T> => {
    if (delay > 0) await sleep(delay);
    const start = performance.now();
    try {
      return await work();
    } finally {
      spans.push({ start, end: performance.now() });
    }
  };
  const [followed, blocked] = await Promise.all([
    timed(offset, () => api("POST", "/follows", { token: ada.token, body: { followee_id: bob.id } })),
    timed(-offset, () => blockByHandle(bob.id, ada.handle)),
  ]);
  figures.races++;
  if (!blocked.ok) throw new Error(`race ${i}: the block failed: ${blocked.error}`);
  if (followed.status === 403 && followed.body?.code === "write_refused") figures.follows_refused++;
  else if (followed.status !== 201)
    throw new Error(`race ${i}: follow answered ${followed.status} ${JSON.stringify(followed.body)}`);
  const [a, b] = spans;
  if (a && b && a.start < b.end && b.start < a.end) figures.overlapped++;
  const [state] = await asService((tx) =>
    tx.query<{ blocks: number; follows: number }>(
      `select (select count(*)::int from public.blocks
                where (blocker_id = $1 and blocked_id = $2) or (blocker_id = $2 and blocked_id = $1)) as blocks,
              (select count(*)::int from public.follows
                where (follower_id = $1 and followee_id = $2) or (follower_id = $2 and followee_id = $1)) as follows`,
      [ada.id, bob.id],
    ),
  );
  if (state?.blocks !== 1) throw new Error(`race ${i}: the committed block is missing`);
  if (state.follows > 0) figures.survivors++;
  else if (followed.status === 201) figures.follows_made_then_ended++;
}
