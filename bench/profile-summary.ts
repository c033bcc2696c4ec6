// Reads a V8 .cpuprofile: self time by where the code lives, the top functions by self time, and
// the inclusive time of the pipeline's steps. `node bench/profile-summary.ts file.cpuprofile`.
import fs from "node:fs";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  endTime: number;
  startTime: number;
}

/** Functions of the request path whose inclusive time is worth a line each. */
const STEPS = [
  "execute",
  "authenticate",
  "authenticateToken",
  "rateLimit",
  "parseCapabilityInput",
  "parseInput",
  "addressInput",
  "idempotencyFor",
  "asMember",
  "genericHandler",
  "respond",
  "handleRest",
];

function place(url: string, name: string): string {
  if (!url) return name.startsWith("(") ? name : "(native)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] ?? url;
  if (url.startsWith("node:")) return "node internals";
  const chunk = /\.next\/server\/(.*)$/.exec(url);
  if (chunk) return `.next/server/${chunk[1]?.replace(/\[[^\]]*\]/g, "").slice(0, 60)}`;
  return url.replace(/^file:\/\/.*?\/(lib|app|registry)\//, "$1/");
}

/**
 * window: the measured span as ms before the profile's end ([from, to]); without it, the whole
 * life of the process, start-up (module compilation) included.
 */
export function summarize(profile: Profile, window?: [number, number]): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    const ago = (profile.endTime - at) / 1000;
    if (window && (ago > window[0] || ago < window[1])) return;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const idle = [...self]
    .filter(([id]) => byId.get(id)?.callFrame.functionName === "(idle)")
    .reduce((a, [, t]) => a + t, 0);
  const busy = total - idle;
  const byPlace = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const inclusive = new Map<string, number>();
  // Native and Node-internal time charged to the nearest caller in a package or in our bundle.
  const nativeBy = new Map<string, number>();
  for (const [id, ms] of self) {
    const frame = byId.get(id)?.callFrame;
    if (!frame || frame.functionName === "(idle)") continue;
    const where = place(frame.url, frame.functionName);
    byPlace.set(where, (byPlace.get(where) ?? 0) + ms);
    const fn = `${frame.functionName || "(anonymous)"} ${where}:${frame.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
    if (where === "(native)" || where === "node internals") {
      let at = parent.get(id);
      let caller = "";
      for (; at !== undefined; at = parent.get(at)) {
        const f = byId.get(at)?.callFrame;
        const p = f ? place(f.url, f.functionName) : "";
        if (f && p !== "(native)" && p !== "node internals" && !p.startsWith("(")) {
          caller = `${frame.functionName || "(anonymous)"} ← ${p}`;
          break;
        }
      }
      const key = caller || `${frame.functionName || "(anonymous)"} ← (event loop)`;
      nativeBy.set(key, (nativeBy.get(key) ?? 0) + ms);
    }
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = byId.get(at)?.callFrame.functionName ?? "";
      if (STEPS.includes(name) && !seen.has(name)) {
        seen.add(name);
        inclusive.set(name, (inclusive.get(name) ?? 0) + ms);
      }
    }
  }
  const pct = (ms: number) => `${((100 * ms) / busy).toFixed(1).padStart(5)}%`;
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, ms]) => `  ${pct(ms)}  ${k}`);
  return [
    `busy ${Math.round(busy)} ms of ${Math.round(total)} ms sampled (percentages are of busy time)`,
    "self time by place:",
    ...top(byPlace, 15),
    "top functions by self time:",
    ...top(byFunction, 25),
    "native and Node-internal self time by the first caller in a package or the bundle:",
    ...top(nativeBy, 15),
    "inclusive time of pipeline steps (functions whose name survived the build):",
    ...top(inclusive, STEPS.length),
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2];
  if (!file) throw new Error("usage: node bench/profile-summary.ts <file.cpuprofile>");
  console.log(summarize(JSON.parse(fs.readFileSync(file, "utf8"))));
}
