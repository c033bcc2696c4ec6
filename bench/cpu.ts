import fs from "node:fs";

/**
 * CPU time spent serving, read from /proc: on a shared two-core machine throughput moves with
 * everyone else's load, while the CPU a request costs barely does. So the bench reports both, and
 * its ratios on CPU per request are the ones to trust when the load average is high.
 */
const TICK_MS = 10; // USER_HZ is 100 on Linux

interface ProcStat {
  pid: number;
  pgrp: number;
  cpuMs: number;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { pid, pgrp: Number(fields[2]), cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS };
  } catch {
    return undefined; // the process ended
  }
}

function processGroup(pgrp: number): ProcStat[] {
  return fs
    .readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(Number(name)))
    .filter((stat): stat is ProcStat => stat?.pgrp === pgrp);
}

export interface CpuSource {
  /** Processes of the application: the server's process group, or this process. */
  app: { group: number } | "self";
  /** Database server backends serving the application (none for PGlite: it runs inside the app). */
  dbPids: () => Promise<number[]>;
}

export interface CpuSpent {
  appMs: number;
  dbMs: number;
}

/** Starts a CPU count; the returned function answers what was spent since. */
export async function startCpuCount(source: CpuSource): Promise<() => Promise<CpuSpent>> {
  const selfStart = process.cpuUsage();
  const appStart = new Map(source.app === "self" ? [] : processGroup(source.app.group).map((s) => [s.pid, s.cpuMs]));
  const dbStart = new Map((await source.dbPids()).map((pid) => [pid, readStat(pid)?.cpuMs ?? 0]));
  return async () => {
    let appMs = 0;
    if (source.app === "self") {
      const used = process.cpuUsage(selfStart);
      appMs = (used.user + used.system) / 1000;
    } else {
      for (const stat of processGroup(source.app.group)) appMs += stat.cpuMs - (appStart.get(stat.pid) ?? 0);
    }
    let dbMs = 0;
    for (const pid of new Set([...dbStart.keys(), ...(await source.dbPids())])) {
      const now = readStat(pid)?.cpuMs;
      if (now !== undefined) dbMs += now - (dbStart.get(pid) ?? 0);
    }
    return { appMs, dbMs };
  };
}
