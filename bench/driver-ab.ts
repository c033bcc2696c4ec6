// Two versions of the store taking turns, each turn installing one (alternate): the order flips each round
// (ABBA), so this machine's drift falls on both alike (the A/B scripts of bench/: the *-ab.ts files and
// catalog-words.ts). takeTurnsOn measures at the driver: every kind of
// call from 8 loops at once for 3 s after half a second unmeasured, which keeps both cores busy as pgbench
// would.
import type { CpuSource } from "./cpu.ts";
import type { Target } from "./databases.ts";
import { closedLoop, type Measurement, median } from "./stats.ts";

import { getDb } from "../lib/db/index.ts";

export type Variant = "before" | "after";

/** A round's order: the two versions swap who goes first each round (ABBA). */
const turnOrder = (round: number): readonly Variant[] => (round % 2 ? ["after", "before"] : ["before", "after"]);

/** Installs a version: its SQL (functions as migrations wrote them) in one transaction. */
export const installer = (versions: Record<Variant, string>) => async (variant: Variant) =>
  (await getDb()).transaction((tx) => tx.exec(versions[variant]));

export const LOOPS = 8;
const SECONDS = 3;

interface TurnOptions<Kind extends string> {
  rounds: number;
  kinds: readonly Kind[];
  switchTo: (variant: Variant) => Promise<unknown>;
  /** `i` counts the turn's calls; `loop` is the calling loop's index (0 to LOOPS − 1). */
  run: (kind: Kind, i: number, loop: number) => Promise<unknown>;
  /** Each turn's own step after installing its version and before the calls it measures. */
  prepare?: (variant: Variant) => Promise<unknown>;
}

/**
 * Runs `turn` for each version of each round, after installing it, in the round's order (ABBA); ends with
 * "after" installed, as the store stands.
 */
export async function alternate(
  rounds: number,
  switchTo: (variant: Variant) => Promise<unknown>,
  turn: (variant: Variant, round: number) => Promise<void>,
): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    for (const variant of turnOrder(round)) {
      await switchTo(variant);
      await turn(variant, round);
    }
  }
  await switchTo("after");
}

/**
 * A bench database its seed has just filled (open), settled and open again: on the Postgres server vacuumed and
 * checkpointed, so autovacuum does not work through the seed under the turns (PGlite's settle does nothing).
 */
export async function settleSeeded(target: Target): Promise<void> {
  await target.close();
  await target.settle();
  await target.open();
}

/**
 * Every turn's measurement of each kind, by `${kind}|${variant}`, on a database its seed has just filled
 * (settled first); a failed call fails the run. The CPU counted is this process's and the database backends'.
 */
export async function takeTurnsOn<Kind extends string>(
  target: Target,
  options: TurnOptions<Kind>,
): Promise<Map<string, Measurement[]>> {
  await settleSeeded(target);
  const cpu: CpuSource = { app: "self", dbPids: target.dbPids };
  const turns = new Map<string, Measurement[]>();
  await alternate(options.rounds, options.switchTo, async (variant) => {
    await options.prepare?.(variant);
    for (const kind of options.kinds) {
      const work = async (i: number, loop: number) => void (await options.run(kind, i, loop));
      await closedLoop(kind, LOOPS, 0.5, cpu, work);
      const m = await closedLoop(kind, LOOPS, SECONDS, cpu, work);
      if (m.unexpected) throw new Error(`${variant} ${kind}: ${m.unexpected} calls failed`);
      turns.set(`${kind}|${variant}`, [...(turns.get(`${kind}|${variant}`) ?? []), m]);
    }
  });
  return turns;
}

/**
 * Two versions' figures: medians before → after, the ratio (to `ratioDigits`), and every figure, named
 * `label` (a turn's, or each call's when a turn makes several).
 */
export function beforeAfter(
  before: readonly number[],
  after: readonly number[],
  digits = 2,
  { label = "turns", ratioDigits = 2 }: { label?: string; ratioDigits?: number } = {},
): string {
  const [b, a] = [median([...before]), median([...after])];
  const show = (values: readonly number[]) => values.map((v) => v.toFixed(digits)).join(", ");
  return `${b.toFixed(digits)} → ${a.toFixed(digits)} (×${(a / b).toFixed(ratioDigits)}; ${label} [${show(before)}] → [${show(after)}])`;
}

/**
 * One kind's line: calls a second and CPU a call (the database backends' on Postgres, the whole process's
 * on PGlite, whose database runs in it), medians before → after with every turn.
 */
export function turnsLine(
  database: string,
  kind: string,
  turns: Map<string, Measurement[]>,
  labels: { rate: string; call: string },
): string {
  const of = (variant: Variant) => turns.get(`${kind}|${variant}`) ?? [];
  const line = (what: string, read: (m: Measurement) => number) =>
    `${what} ${beforeAfter(of("before").map(read), of("after").map(read))}`;
  const cpu =
    database === "postgres"
      ? line(`CPU ms a ${labels.call}, the database's`, (m) => m.cpuMsPerRequest.db)
      : line(`CPU ms a ${labels.call} (one process)`, (m) => m.cpuMsPerRequest.total);
  return `${database} ${kind}: ${line(labels.rate, (m) => m.requestsPerSecond)}; ${cpu}`;
}
