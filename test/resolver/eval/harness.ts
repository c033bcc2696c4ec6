import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { resetProviderBreaker } from "../../../lib/catalog/providers/breaker.ts";
import { clearProviderCache } from "../../../lib/catalog/providers/cache.ts";
import { resolve } from "../../../lib/domain/catalog-handlers.ts";
import { ApiError } from "../../../lib/http/problem.ts";
import { type FixtureAnswer, routeKey } from "../support/fixture-server.ts";

/**
 * The resolver's evaluation (npm run eval:resolver, and test/resolver/eval.test.ts): labelled
 * inputs run through the registry's resolve handler — the real recogniser, catalog and provider
 * HTTP clients — with the providers replayed from test/fixtures/upstream/eval on 127.0.0.1.
 */
const ROOT = process.cwd();
const SET_FILE = path.join(ROOT, "test", "fixtures", "eval", "resolver-set.json");
const ROUTES_FILE = path.join(ROOT, "test", "fixtures", "upstream", "eval", "routes.json");

export interface EvalCase {
  input: string;
  kind: string;
  platform: string | null;
  expect: { domain: string; title: string; titles?: string[]; creator?: string };
  source?: string;
}

interface Answer {
  domain: string;
  title: string | null;
  creators: { name: string }[];
  artwork: unknown;
  platform_links: Record<string, unknown>;
}

export interface CaseResult {
  case: EvalCase;
  status: number;
  answer: Answer | null;
  correct: boolean;
  ms: number;
}

export interface Figures {
  cases: number;
  answered: number;
  precisionAt1: number;
  withArtwork: number;
  withCreators: number;
  musicAnswers: number;
  musicWithArtwork: number;
  musicWithThreeLinks: number;
  medianMs: number;
  p95Ms: number;
}

export function loadSet(): EvalCase[] {
  return (JSON.parse(fs.readFileSync(SET_FILE, "utf8")) as { cases: EvalCase[] }).cases;
}

interface RouteSpec {
  path: string;
  query?: Record<string, string>;
  file?: string;
  status?: number;
  headers?: Record<string, string>;
}

/** The replay server's routes, keyed as the fixture server keys requests (query sorted). */
export function evalRoutes(): Record<string, FixtureAnswer> {
  const { routes } = JSON.parse(fs.readFileSync(ROUTES_FILE, "utf8")) as { routes: RouteSpec[] };
  return Object.fromEntries(
    routes.map(({ path: route, query, file, status, headers }) => [
      routeKey(
        "GET",
        `${encodeURI(route)}${query && Object.keys(query).length ? `?${new URLSearchParams(query)}` : ""}`,
      ),
      { file: file ? path.join("eval", file) : undefined, status, headers },
    ]),
  );
}

/** Every provider's base URL on the replay server: the keyless default set, answering from fixtures. */
export function fixtureEnv(base: string): Record<string, string> {
  return {
    RESOLVER_PROVIDERS: "",
    RESOLVER_ODESLI_URL: `${base}/odesli`,
    RESOLVER_ITUNES_URL: `${base}/itunes`,
    RESOLVER_MUSICBRAINZ_URL: `${base}/musicbrainz`,
    RESOLVER_COVERARTARCHIVE_URL: `${base}/coverartarchive`,
    RESOLVER_OPENLIBRARY_URL: `${base}/openlibrary`,
    RESOLVER_WIKIPEDIA_URL: `${base}/wikipedia/{lang}`,
    RESOLVER_NOMINATIM_URL: `${base}/nominatim`,
    RESOLVER_HTML_URL: `${base}/html`,
    RESOLVER_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    RESOLVER_MIN_INTERVAL_MS: "0",
  };
}

/** Case, accents, punctuation and "&"/"and" do not make a title another work's. */
export const normalise = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/** Precision@1: the answer names the expected work — its domain, title and (when labelled) a creator. */
export function isCorrect(expected: EvalCase["expect"], answer: Answer | null): boolean {
  if (!answer?.title || answer.domain !== expected.domain) return false;
  const title = normalise(answer.title);
  if (![expected.title, ...(expected.titles ?? [])].some((t) => normalise(t) === title)) return false;
  if (!expected.creator) return true;
  const creator = normalise(expected.creator);
  return answer.creators.some((c) => normalise(c.name).includes(creator) || creator.includes(normalise(c.name)));
}

/** Resets what one process remembers of providers, so each mode starts cold (the database cache is per fixture port). */
export function forgetProviderState(): void {
  clearProviderCache();
  resetProviderBreaker();
}

export async function runCase(item: EvalCase): Promise<CaseResult> {
  const started = performance.now();
  let status = 200;
  let answer: Answer | null = null;
  try {
    answer = (await resolve.prepare?.({ input: { input: item.input } } as never)) as Answer;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    status = error.status;
  }
  const ms = performance.now() - started;
  return { case: item, status, answer, correct: isCorrect(item.expect, answer), ms };
}

export async function runSet(cases: readonly EvalCase[]): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const item of cases) results.push(await runCase(item));
  return results;
}

const share = (part: number, whole: number) => (whole ? part / whole : 0);
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;

export function figures(results: readonly CaseResult[]): Figures {
  const answers = results.flatMap((r) => (r.answer ? [r.answer] : []));
  const music = answers.filter((a) => a.domain === "music");
  const times = results.map((r) => r.ms).sort((a, b) => a - b);
  return {
    cases: results.length,
    answered: answers.length,
    precisionAt1: share(results.filter((r) => r.correct).length, results.length),
    withArtwork: share(answers.filter((a) => a.artwork).length, answers.length),
    withCreators: share(answers.filter((a) => a.creators.length > 0).length, answers.length),
    musicAnswers: music.length,
    musicWithArtwork: share(music.filter((a) => a.artwork).length, music.length),
    musicWithThreeLinks: share(music.filter((a) => Object.keys(a.platform_links).length >= 3).length, music.length),
    medianMs: quantile(times, 0.5),
    p95Ms: quantile(times, 0.95),
  };
}

const pct = (value: number) => `${(value * 100).toFixed(1)}%`;

export function formatFigures(label: string, f: Figures): string {
  return [
    `${label}: ${f.cases} inputs, ${f.answered} answered`,
    `  precision@1 ${pct(f.precisionAt1)} · artwork ${pct(f.withArtwork)} · creators ${pct(f.withCreators)}`,
    `  music answers ${f.musicAnswers}: artwork ${pct(f.musicWithArtwork)} · ≥ 3 platform links ${pct(f.musicWithThreeLinks)}`,
    `  latency median ${f.medianMs.toFixed(1)} ms · p95 ${f.p95Ms.toFixed(1)} ms`,
  ].join("\n");
}

export function formatMisses(results: readonly CaseResult[]): string {
  return results
    .filter((r) => !r.correct)
    .map((r) => {
      const got = r.answer
        ? `${r.answer.domain} "${r.answer.title}" by ${r.answer.creators.map((c) => c.name).join(", ") || "—"}`
        : `HTTP ${r.status}`;
      return `  ✗ ${r.case.input}\n      expected ${r.case.expect.domain} "${r.case.expect.title}"${r.case.expect.creator ? ` by ${r.case.expect.creator}` : ""}; got ${got}`;
    })
    .join("\n");
}
