import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderError } from "@/lib/catalog/providers/errors";
import { expandShortLink } from "@/lib/catalog/providers/short-links";
import { recogniseUrl } from "@/lib/catalog/recognise";
import type { ParsedRef } from "@/lib/catalog/types";
import { type FixtureServer, startFixtureServer } from "./support/fixture-server";

let server: FixtureServer;
const saved = { ...process.env };
const TARGET = "https://open.spotify.com/track/0Jcij1eWd5bDMU5iPbxe2i?si=abc";
const shortRef = (path: string): ParsedRef => ({
  platform: "spotify",
  domain: "music",
  kind: "short_link",
  ids: [],
  canonicalUrl: `${server.url}${path}`,
  hints: {},
  needsNetwork: true,
});

beforeAll(async () => {
  server = await startFixtureServer({
    "GET /s/abc": { status: 301, headers: { location: TARGET } },
    "GET /s/hop": { status: 302, headers: { location: "/s/abc" } },
    "GET /s/loop": { status: 302, headers: { location: "/s/loop" } },
    "GET /s/private": { status: 302, headers: { location: "http://10.0.0.1/track" } },
  });
  process.env.RESOLVER_ALLOW_PRIVATE_HOSTS = "127.0.0.1";
  process.env.RESOLVER_TIMEOUT_MS = "2000";
});
afterAll(async () => {
  for (const name of ["RESOLVER_ALLOW_PRIVATE_HOSTS", "RESOLVER_TIMEOUT_MS"]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await server.close();
});

describe("short links (network)", () => {
  it("follows redirects to the first address the recogniser knows, without fetching it", async () => {
    const target = await expandShortLink(shortRef("/s/hop"), recogniseUrl);
    expect(target.href).toBe(TARGET);
    expect(recogniseUrl(target).ids).toEqual([{ namespace: "spotify:track", value: "0Jcij1eWd5bDMU5iPbxe2i" }]);
    expect(server.requests).toEqual(expect.arrayContaining(["GET /s/hop", "GET /s/abc"]));
  });

  it("gives up after five redirects and refuses a hop to a private address", async () => {
    await expect(expandShortLink(shortRef("/s/loop"), recogniseUrl)).rejects.toBeInstanceOf(ProviderError);
    await expect(expandShortLink(shortRef("/s/private"), recogniseUrl)).rejects.toMatchObject({ code: "refused" });
  });
});
