// Which vitest files can touch a database, found from the import graph, so a new test file is
// classified without a list to keep: `npm test` runs every file on embedded PGlite and then only
// these again on the Postgres server (with Redis). A file counts when it, or anything it imports
// through relative or `@/` paths, imports a database or Redis client, or starts a process or thread
// (which may open one with the environment it inherits), or reads DATABASE_URL / REDIS_URL itself.
// Erring on the side of "touches" only costs a second run; the other way would lose the server pass.
import fs from "node:fs";
import path from "node:path";

/** vitest.config.ts collects these. */
export const TEST_FILES = "test/**/*.test.ts";

const SPECIFIER =
  /(?:^|[^.\w$])(?:import|export)\s[^'"`;]*?\bfrom\s*["']([^"']+)["']|(?:^|[^.\w$])import\s*\(\s*["']([^"']+)["']\s*\)|(?:^|[^.\w$])import\s*["']([^"']+)["']/gm;
const OPENS =
  /^(?:node:)?(?:child_process|worker_threads|cluster)$|^(?:postgres|redis|pg|@redis\/[^/]+|@electric-sql\/pglite)(?:\/.*)?$/;
const READS_DATABASE_ENV = /\b(?:DATABASE_URL|REDIS_URL)\b/;

function resolveLocal(root: string, from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("@/")) base = path.join(root, specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  else return null;
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, "index.ts"),
    path.join(base, "index.tsx"),
  ]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/**
 * Whether each module (absolute path) imports what `opensWhat` matches (a database client by default),
 * directly or through the local modules it imports; with `within`, only local modules under that folder.
 */
function classifier(root: string, opensWhat: RegExp = OPENS, within?: string): (file: string) => boolean {
  const verdicts = new Map<string, boolean>();
  const visit = (file: string): boolean => {
    const known = verdicts.get(file);
    if (known !== undefined) return known;
    verdicts.set(file, false); // an import cycle adds nothing its other edges do not
    let opens = false;
    for (const match of fs.readFileSync(file, "utf8").matchAll(SPECIFIER)) {
      const specifier = match[1] ?? match[2] ?? match[3] ?? "";
      const local = resolveLocal(root, file, specifier);
      if (local ? (!within || local.startsWith(within)) && visit(local) : opensWhat.test(specifier)) {
        opens = true;
        break;
      }
    }
    verdicts.set(file, opens);
    return opens;
  };
  return visit;
}

/** Every vitest file, relative to root, sorted. */
export function testFiles(root: string = process.cwd()): string[] {
  return fs
    .globSync(TEST_FILES, { cwd: root })
    .map((file) => file.split(path.sep).join("/"))
    .sort();
}

/**
 * A file that opens the embedded database itself, whatever the pass (the PGlite thread, the data
 * folder's lock), says so on a line of its own; the server pass would only run it again as it was.
 */
const EMBEDDED_ONLY = /^\/\/ test-files: embedded database only\b/m;
/**
 * A file that starts its own servers on each store itself (an embedded folder and a database of its
 * own on the Postgres server), whatever the pass, says so on a line of its own: the server pass would
 * run the same processes on the same stores again. Believed only when the file names both stores'
 * settings, PGLITE_DIR and DATABASE_URL.
 */
const BOTH_STORES = /^\/\/ test-files: both stores in one pass\b/m;
const SERVER_CLIENTS = /^(?:postgres|redis|pg|@redis\/[^/]+)(?:\/.*)?$/;

/** The files (relative to root) that can touch a database: the Postgres server pass runs these. */
export function databaseTestFiles(files: readonly string[], root: string = process.cwd()): string[] {
  const opens = classifier(root);
  const reachesServer = classifier(root, SERVER_CLIENTS);
  return files.filter((file) => {
    const absolute = path.join(root, file);
    const text = fs.readFileSync(absolute, "utf8");
    if (EMBEDDED_ONLY.test(text)) {
      // The mark is believed only while nothing the file imports can reach the server's clients.
      if (reachesServer(absolute)) throw new Error(`${file} says "embedded database only" but imports a server client`);
      return false;
    }
    if (BOTH_STORES.test(text)) {
      if (!/\bPGLITE_DIR\b/.test(text) || !/\bDATABASE_URL\b/.test(text))
        throw new Error(`${file} says "both stores in one pass" but does not set PGLITE_DIR and DATABASE_URL`);
      return false;
    }
    return readsDatabaseEnv(absolute) || opens(absolute);
  });
}

const SPAWNS = /^node:(?:child_process|worker_threads|cluster)$/;

/**
 * Whether a test file starts processes or threads, itself or through the test helpers it imports
 * (test/ only: lib/'s optional worker thread is not started by importing it). Each such start boots
 * Node and often a database, so these files are the long ones: vitest starts them first
 * (test/support/slow-first-sequencer.ts) rather than last on one worker while the other waits.
 */
export function startsProcesses(root: string = process.cwd()): (file: string) => boolean {
  const visit = classifier(root, SPAWNS, path.join(root, "test"));
  return (file) => visit(path.isAbsolute(file) ? file : path.join(root, file));
}

/** Whether a test file reads DATABASE_URL or REDIS_URL itself: the server-only suites (a big catalog, held-open transactions). */
export function readsDatabaseEnv(file: string): boolean {
  return READS_DATABASE_ENV.test(fs.readFileSync(file, "utf8"));
}

/** The files a vitest filter list selects (vitest keeps a file whose path contains a filter). */
export function selectedBy(
  files: readonly string[],
  filters: readonly string[],
  root: string = process.cwd(),
): string[] {
  if (filters.length === 0) return [...files];
  const wanted = filters.map((filter) =>
    (path.isAbsolute(filter) ? path.relative(root, filter) : filter).replace(/^\.\//, "").split(path.sep).join("/"),
  );
  return files.filter((file) => wanted.some((filter) => file.includes(filter)));
}
