import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { nextBin, nextEnv } from "../scripts/next-build.ts";
import type { Scenario } from "./load.ts";
import type { BenchMember } from "./seed.ts";

/**
 * The bounds served by Next itself, from a separate app (bench/floor-app, never shipped): a
 * static JSON route (the framework's floor) and a naive GET /collections written plainly with
 * postgres.js (token look-up + the RLS transaction), the hand-written route to compare with.
 */
export const FLOOR_APP = path.join(process.cwd(), "bench", "floor-app");

export function buildFloorIfStale(): void {
  const builtAt = (() => {
    try {
      return fs.statSync(path.join(FLOOR_APP, ".next", "BUILD_ID")).mtimeMs;
    } catch {
      return 0;
    }
  })();
  const sources = ["app/static/route.js", "app/naive/route.js", "app/layout.js", "next.config.mjs"];
  if (sources.every((file) => fs.statSync(path.join(FLOOR_APP, file)).mtimeMs <= builtAt)) return;
  console.log("Building bench/floor-app…");
  const build = spawnSync(nextBin, ["build", FLOOR_APP], { stdio: ["ignore", "inherit", "inherit"], env: nextEnv() });
  if (build.status !== 0) throw new Error(`next build bench/floor-app failed (exit ${build.status})`);
}

export const STATIC_LABEL = "floor: Next static JSON route";
export const NAIVE_LABEL = "naive route: token + RLS tx (postgres.js)";

export const staticScenario: Scenario = { label: STATIC_LABEL, method: "GET", path: () => "/static", expect: 200 };

export const naiveScenario = (members: readonly BenchMember[]): Scenario => ({
  label: NAIVE_LABEL,
  method: "GET",
  path: () => "/naive",
  token: (i) => {
    const member = members[i % members.length];
    return member?.tokens[i % member.tokens.length] ?? "";
  },
  expect: 200,
});
