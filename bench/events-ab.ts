// What writing every event costs the create and update rows (issue 33: the event log keeps every
// event, where before an event was written only when an endpoint of the member wanted it). One server
// per database, the same build and seed; windows take turns between the two versions of
// app_private.emit_webhook_event, so a drift of this machine's speed falls on both alike:
//   "subscribers only": the function of 20261123110000_create_webhooks.sql (the bench's members have
//                       no endpoint, so no event row is written);
//   "every event":      the function of 20261126130000_write_every_event.sql (an event row, its
//                       sequence counter and the log's indexes on every write).
//   node bench/events-ab.ts [rounds]   (BENCH_DATABASES, BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_CATALOG)
// On PGlite (one process per folder) the server is stopped for each switch and warmed up again.
// EVENTS_AB=store measures the store alone instead, no HTTP: the CPU a member's statement inserting or
// updating 500 items takes in each mode, the modes taking turns, per write.
import { asMember, asService } from "../lib/db/index.ts";
import { settings } from "./config.ts";
import { createTarget, type Target, serverEnv } from "./databases.ts";
import { startCpuCount } from "./cpu.ts";
import { measureApi } from "./load.ts";
import { migrationFunction } from "./migration-sql.ts";
import { createScenario, updateScenario } from "./scenarios.ts";
import { type BenchMember, seed } from "./seed.ts";
import { type RunningServer, startServer } from "./server.ts";
import { type Measurement, median } from "./stats.ts";
import { warmUntilSteady } from "./warm-up.ts";
import { buildIfStale } from "../scripts/next-build.ts";

const rounds = Number(process.argv[2] ?? 3);

const MODES = {
  "subscribers only": migrationFunction("20261123110000_create_webhooks", "app_private.emit_webhook_event"),
  "every event": migrationFunction("20261126130000_write_every_event", "app_private.emit_webhook_event"),
} as const;
type Mode = keyof typeof MODES;

const switchTo = (mode: Mode) => asService((tx) => tx.query(MODES[mode]));

interface Row {
  database: string;
  mode: Mode;
  label: string;
  round: number;
  m: Measurement;
}

async function benchDatabase(target: Target): Promise<Row[]> {
  await target.open();
  const seeded = await seed();
  await target.close();
  const scenarios = [createScenario(seeded), updateScenario(seeded)];
  const env = serverEnv(target);
  const rows: Row[] = [];
  let server: RunningServer | null = null;
  const measure = async (mode: Mode, round: number) => {
    for (const scenario of scenarios) {
      const live = server as RunningServer;
      const cpu = { app: { group: live.group }, dbPids: target.dbPids };
      await warmUntilSteady((seconds) => measureApi(live.url, cpu, scenario, seconds));
      await live.drain();
      const m = await measureApi(live.url, cpu, scenario);
      await live.drain();
      rows.push({ database: target.name, mode, label: scenario.label, round, m });
      console.log(
        `${target.name} ${mode.padEnd(16)} ${scenario.label.padEnd(18)} round ${round}: ${m.requestsPerSecond} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, CPU ${m.cpuMsPerRequest.total} ms/req (db ${m.cpuMsPerRequest.db}), unexpected ${m.unexpected}`,
      );
    }
  };
  try {
    for (let round = 1; round <= rounds; round++) {
      // Alternate which mode goes first, so neither always follows the other's load.
      const order: Mode[] = round % 2 ? ["subscribers only", "every event"] : ["every event", "subscribers only"];
      for (const mode of order) {
        const restart = target.name === "pglite" || !server;
        if (restart && server) await server.stop();
        await target.open();
        await switchTo(mode);
        await target.close();
        if (restart) server = await startServer(env);
        await measure(mode, round);
      }
    }
  } finally {
    if (server) await server.stop();
  }
  return rows;
}

/**
 * The store's CPU per write in each mode (this process and, on a server, its backends: CPU barely
 * moves with the machine's other load, where time does), over turns of one member statement writing
 * ROWS items, the two modes alternating.
 */
async function storeCost(target: Target): Promise<void> {
  const ROWS = 500;
  const TURNS = 12;
  await target.open();
  try {
    const seeded = await seed();
    const member = seeded.members[0] as BenchMember;
    const [collection, song] = [member.collectionIds[0], seeded.catalogIds[0]];
    await asService((tx) =>
      tx.query(
        "insert into public.items (owner_id, collection_id, song_id, note) select $1, $2, $3, 'bench' from generate_series(1, $4::int)",
        [member.id, collection, song, ROWS],
      ),
    );
    const statements: Record<string, [string, unknown[]]> = {
      insert: [
        "insert into public.items (collection_id, song_id, note) select $1, $2, 'bench' from generate_series(1, $3::int)",
        [collection, song, ROWS],
      ],
      update: [
        "update public.items set note = left(note, 100) || '.' where id in (select id from public.items where owner_id = $1 order by id limit $2)",
        [member.id, ROWS],
      ],
    };
    const spent: Record<string, number> = {};
    for (let turn = 0; turn < TURNS; turn++) {
      const modes = Object.keys(MODES) as Mode[];
      for (const mode of turn % 2 ? modes.reverse() : modes) {
        await switchTo(mode);
        for (const [name, [sql, params]] of Object.entries(statements)) {
          const stop = await startCpuCount({ app: "self", dbPids: target.dbPids });
          await asMember(member.id, (tx) => tx.query(sql, params));
          const cpu = await stop();
          const key = `${name}|${mode}`;
          spent[key] = (spent[key] ?? 0) + cpu.appMs + cpu.dbMs;
        }
      }
    }
    for (const name of Object.keys(statements)) {
      const [before, after] = (Object.keys(MODES) as Mode[]).map(
        (mode) => ((spent[`${name}|${mode}`] ?? 0) * 1000) / (TURNS * ROWS),
      );
      console.log(
        `${target.name} ${name}: ${before?.toFixed(0)} µs CPU a write with subscribers only, ${after?.toFixed(0)} µs with every event (+${((after ?? 0) - (before ?? 0)).toFixed(0)} µs)`,
      );
    }
  } finally {
    await target.drop();
  }
}

if (process.env.EVENTS_AB === "store") {
  for (const name of settings.databases) await storeCost(await createTarget(name));
  process.exit(0);
}

buildIfStale();
const all: Row[] = [];
for (const name of settings.databases) {
  const target = await createTarget(name);
  try {
    all.push(...(await benchDatabase(target)));
  } finally {
    await target.drop();
  }
}
console.log("\nMedian over rounds, every event ÷ subscribers only:");
for (const database of settings.databases) {
  for (const label of ["POST /items", "PATCH /items/{id}"]) {
    const of = (mode: Mode) => all.filter((r) => r.database === database && r.label === label && r.mode === mode);
    const rps = (mode: Mode) => median(of(mode).map((r) => r.m.requestsPerSecond));
    const cpu = (mode: Mode) => median(of(mode).map((r) => r.m.cpuMsPerRequest.total));
    console.log(
      `${database} ${label}: ${rps("subscribers only")} → ${rps("every event")} req/s (×${(rps("every event") / rps("subscribers only")).toFixed(3)}), CPU ${cpu("subscribers only")} → ${cpu("every event")} ms/req (×${(cpu("every event") / cpu("subscribers only")).toFixed(3)})`,
    );
  }
}
process.exit(0);
