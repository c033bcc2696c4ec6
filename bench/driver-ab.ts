// Two versions of the store measured at the driver, taking turns (bench/search-ab.ts, streak-ab.ts): each
// turn installs one version, then runs every kind of call from 8 loops at once for 3 s after half a second
// unmeasured, which keeps both cores busy as pgbench would. The order flips each round (ABBA), so this
// machine's drift falls on both alike.
import type { CpuSource } from "./cpu.ts";
import type { Target } from "./databases.ts";
import { closedLoop, type Measurement, median } from "./stats.ts";

import { getDb } from "../lib/db/index.ts";

export type Variant = "before" | "after";

/** A round's order: the two versions swap who goes first each round (ABBA). */
export const turnOrder = (round: number): readonly Variant[] => (round % 2 ? ["after", "before"] : ["before", "after"]);

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
}

/** Every turn's measurement of each kind, by `${kind}|${variant}`; ends on "after". A failed call fails the run. */
export async function takeTurns<Kind extends string>(
  options: TurnOptions<Kind> & { cpu: CpuSource },
): Promise<Map<string, Measurement[]>> {
  const turns = new Map<string, Measurement[]>();
  for (let round = 0; round < options.rounds; round++) {
    for (const variant of turnOrder(round)) {
      await options.switchTo(variant);
      for (const kind of options.kinds) {
        const work = async (i: number, loop: number) => void (await options.run(kind, i, loop));
        await closedLoop(kind, LOOPS, 0.5, options.cpu, work);
        const m = await closedLoop(kind, LOOPS, SECONDS, options.cpu, work);
        if (m.unexpected) throw new Error(`${variant} ${kind}: ${m.unexpected} calls failed`);
        turns.set(`${kind}|${variant}`, [...(turns.get(`${kind}|${variant}`) ?? []), m]);
      }
    }
  }
  await options.switchTo("after");
  return turns;
}

/**
 * takeTurns on a bench database its seed has just filled (open here): settled first, so autovacuum does not
 * work through the seed under the turns; the CPU counted is this process's and the database backends'.
 */
export async function takeTurnsOn<Kind extends string>(
  target: Target,
  options: TurnOptions<Kind>,
): Promise<Map<string, Measurement[]>> {
  await target.close();
  await target.settle();
  await target.open();
  return takeTurns({ ...options, cpu: { app: "self", dbPids: target.dbPids } });
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
  const line = (what: string, read: (m: Measurement) => number) => {
    const [before, after] = [median(of("before").map(read)), median(of("after").map(read))];
    const show = (variant: Variant) =>
      of(variant)
        .map((m) => read(m).toFixed(2))
        .join(", ");
    return `${what} ${before.toFixed(2)} → ${after.toFixed(2)} (×${(after / before).toFixed(2)}; turns [${show("before")}] → [${show("after")}])`;
  };
  const cpu =
    database === "postgres"
      ? line(`CPU ms a ${labels.call}, the database's`, (m) => m.cpuMsPerRequest.db)
      : line(`CPU ms a ${labels.call} (one process)`, (m) => m.cpuMsPerRequest.total);
  return `${database} ${kind}: ${line(labels.rate, (m) => m.requestsPerSecond)}; ${cpu}`;
}
