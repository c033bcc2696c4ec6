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
export const SERVER_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=16", "--heap-growing-percent=50"];
export const SERVER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: "2" };
