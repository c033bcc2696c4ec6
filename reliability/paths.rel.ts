import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { record } from "./report";
import { serve, stopAll } from "./servers";

// Paths only a real server sees raw: percent sequences that do not decode ("%zz", a cut "%E0%A4",
// an encoded lone surrogate). Next and node:http answered 500 for these; proxy.ts and
// serve-rest.ts now share lib/http/path-segments.ts and answer 400.

const REQUESTS = Number(process.env.RELIABILITY_PATH_REQUESTS ?? 300);

afterAll(stopAll);

const piece = fc.oneof(
  fc.constantFrom(
    "%",
    "%z",
    "%zz",
    "%E0%A4%A",
    "%ED%A0%80",
    "%C0%AF",
    "%FF",
    "%00",
    "%2F",
    "%252e",
    "..",
    "todos",
    "collections",
  ),
  fc.uuid(),
  fc
    .string({ unit: fc.constantFrom(..."0123456789abcdefABCDEFxz"), minLength: 1, maxLength: 4 })
    .map((hex) => `%${hex}`),
);

describe("raw paths", () => {
  it(`${REQUESTS} odd percent-encoded paths on a real server: no 5xx`, async () => {
    const server = await serve({ PGLITE_DIR: "memory://" });
    const paths = fc.sample(
      fc.array(piece, { minLength: 1, maxLength: 4 }).map((parts) => `/api/v1/${parts.join("/")}`),
      {
        numRuns: REQUESTS,
        seed: 1123,
      },
    );
    const byStatus: Record<string, number> = {};
    const serverErrors: string[] = [];
    for (const path of paths) {
      const response = await fetch(`${server.url}${path}`, { signal: AbortSignal.timeout(10_000) });
      await response.arrayBuffer();
      byStatus[response.status] = (byStatus[response.status] ?? 0) + 1;
      if (response.status >= 500) serverErrors.push(`${response.status} ${path}`);
    }
    record("fuzzing_raw_paths", {
      requests: paths.length,
      by_status: byStatus,
      server_errors: serverErrors.length,
      examples: serverErrors.slice(0, 10),
    });
    expect(serverErrors).toEqual([]);
  });
});
