/**
 * Node 24's V8 can abort a process that hosts PGlite's wasm when it frees compiled wasm code: "Check
 * failed: jit_page_->allocations_.erase(addr) == 1" in ThreadIsolation::UnregisterWasmAllocation
 * (reported as nodejs/node#66366, and with PGlite in #64500; seen here on Node 24.21.0). It killed
 * `npm start` in one of three CI runs on 2026-11-29, right after the migrations. Without wasm code GC,
 * V8 keeps compiled code that is no longer used (a function's first tier, once optimised) until its
 * whole module is released, so the path that aborted is not taken; what it keeps is bounded by
 * PGlite's code, and a PGlite process held the same RSS with and without it (715–742 MB against
 * 720–733 MB after 25 s of queries, two turns each). NODE_OPTIONS refuses the flag: it goes on the
 * command line of the server (below), the test workers (vitest.config.ts, reliability/vitest.config.ts)
 * and the servers tests start on PGlite (test/support/serve-rest-process.ts, e2e). A workaround, to
 * drop once Node 24 carries V8's fix.
 */
export const EMBEDDED_DATABASE_NODE_FLAGS: readonly string[] = ["--no-wasm-code-gc"];

/**
 * How Node runs the production server, wherever it runs: npm start (package.json), the Docker image
 * (Dockerfile), the browser tests and the bench. V8 here gives the young generation semi-spaces of
 * 64 MB, and glibc gives each thread that allocates its own arena: after the bench's load the
 * server held about 410 MB, of which 128 MB was an empty young generation. With semi-spaces of 16 MB
 * and two arenas it held 290–330 MB, for about 4% more CPU a request (docs/benchmark.md, memory).
 * After that the old generation was the rest: V8 let it grow to several times its live data (about
 * 60 MB) between full collections. Growing it by half at most after each, it held 226–230 MB
 * against 363–374 MB, at the same CPU a request (bench/memory-ab.ts, three rounds; 20% cost 9%
 * more CPU for no less memory). It is a growth factor, not a cap: a larger live set still fits.
 * package.json and the Dockerfile cannot import this: test/deploy/server-runtime.test.ts holds them to it.
 */
export const SERVER_NODE_FLAGS: readonly string[] = [
  "--max-semi-space-size=16",
  "--heap-growing-percent=50",
  ...EMBEDDED_DATABASE_NODE_FLAGS,
];
export const SERVER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: "2" };
