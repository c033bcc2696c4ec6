import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { classifyAddress, isPublicAddress } from "@/lib/net/address-class";
import { GuardedFetchError, guardedFetch } from "@/lib/net/guarded-fetch";
import { BlockedAddressError, guardedLookupFor, useNameResolver } from "@/lib/net/ssrf-guard";
import { loopbackOnly } from "../support/loopback-only";
import { SSRF_TABLE, tableResolver } from "../support/ssrf-table";

// The SSRF table at the guard's own level (npm run reliability runs it through every consumer).

const literal = SSRF_TABLE.filter((row) => !row.resolvesTo && !row.localName);
const names = SSRF_TABLE.filter((row) => row.resolvesTo);
const lookup = guardedLookupFor(() => false);
const lookupAll = (host: string) =>
  new Promise<{ error: NodeJS.ErrnoException | null; addresses: unknown }>((resolve) =>
    lookup(host, { all: true }, (error, addresses) => resolve({ error, addresses })),
  );

let restore = () => {};
afterEach(() => restore());

describe("address classification", () => {
  it.each(
    literal.map((row) => [row.host, row.why, row.public] as const),
  )("%s (%s): public=%s", (host, _why, expected) => {
    // As a URL host (what every consumer sees: WHATWG URL has normalised it) and as the bare text.
    const hostname = new URL(`https://${host}/`).hostname;
    expect(isPublicAddress(hostname)).toBe(expected);
    expect(isPublicAddress(host)).toBe(expected);
  });

  it("judges an IPv6 form by the IPv4 address it carries, and refuses zone ids", () => {
    expect(classifyAddress("64:ff9b::10.0.0.1")).toMatchObject({
      public: false,
      range: "rfc6052",
      embedded: { address: "10.0.0.1", range: "private" },
    });
    expect(classifyAddress("2002:c0a8:1::1")).toMatchObject({
      public: false,
      range: "6to4",
      embedded: { address: "192.168.0.1" },
    });
    expect(classifyAddress("::ffff:8.8.8.8")).toMatchObject({
      public: true,
      embedded: { address: "8.8.8.8", range: "unicast" },
    });
    expect(classifyAddress("fe80::1%eth0")).toMatchObject({ public: false, range: "scoped" });
    expect(classifyAddress("2606:4700:4700::1111%eth0").public).toBe(false);
    expect(classifyAddress("example.com")).toMatchObject({ public: false, range: "not-an-address" });
    expect(classifyAddress("1.2.3.4.5").public).toBe(false);
  });
});

describe("names: every address they resolve to is checked", () => {
  it.each(
    names.map((row) => [row.host, row.why, row.public] as const),
  )("%s (%s): allowed=%s", async (host, _why, expected) => {
    restore = useNameResolver(tableResolver());
    const { error, addresses } = await lookupAll(host);
    if (expected) {
      expect(error).toBeNull();
      expect((addresses as { address: string }[]).map((a) => a.address)).toEqual(
        names.find((r) => r.host === host)?.resolvesTo,
      );
    } else {
      expect(error).toBeInstanceOf(BlockedAddressError);
      expect(error?.code).toBe("EBLOCKED");
    }
  });
});

describe("guardedFetch connects to the address the guard checked", () => {
  let server: http.Server;
  let port = 0;
  const hits: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(req.url ?? "");
      if (req.url === "/hop") return res.writeHead(302, { location: "http://[::ffff:7f00:1]/metadata" }).end();
      if (req.url === "/loop") return res.writeHead(302, { location: "/loop" }).end();
      if (req.url === "/big") return res.writeHead(200).end("x".repeat(4096));
      res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("uses the guard's own answer for the connection, and checks every redirect hop", async () => {
    const asked: string[] = [];
    restore = useNameResolver(async (host) => {
      asked.push(host);
      return [{ address: "127.0.0.1", family: 4 }];
    });
    const allowHost = (host: string) => host === "fixture.ssrf.test";
    // The system resolver does not know this name: the answer can only come from the guard's lookup.
    const ok = await guardedFetch(`http://fixture.ssrf.test:${port}/doc`, { allowHost });
    expect(ok).toMatchObject({ status: 200, body: '{"ok":true}' });
    expect(asked).toEqual(["fixture.ssrf.test"]);
    await expect(guardedFetch(`http://fixture.ssrf.test:${port}/hop`, { allowHost })).rejects.toBeInstanceOf(
      BlockedAddressError,
    );
    expect(hits.slice(0, 2)).toEqual(["/doc", "/hop"]);
  });

  it("stops at the redirect limit and at the size limit", async () => {
    restore = useNameResolver(async () => [{ address: "127.0.0.1", family: 4 }]);
    const allowHost = (host: string) => host === "fixture.ssrf.test";
    const at = `http://fixture.ssrf.test:${port}`;
    await expect(guardedFetch(`${at}/loop`, { allowHost, maxRedirects: 2 })).rejects.toThrow(GuardedFetchError);
    await expect(guardedFetch(`${at}/big`, { allowHost, maxBytes: 1024 })).rejects.toThrow(/larger than 1024 bytes/);
    expect(await guardedFetch(`${at}/big`, { allowHost, maxBytes: 8192 })).toMatchObject({
      status: 200,
      url: `${at}/big`,
    });
  });

  it("refuses a name resolving to a private address before any connection, and lets a public one through to that address only", async () => {
    restore = useNameResolver(tableResolver());
    const net = loopbackOnly();
    try {
      await expect(guardedFetch("https://nat64.ssrf.test/x")).rejects.toBeInstanceOf(BlockedAddressError);
      expect(net.attempts).toEqual([]);
      await expect(guardedFetch("https://public.ssrf.test/x")).rejects.toThrow(/outside loopback/);
      expect(net.attempts).toEqual([{ host: "public.ssrf.test", addresses: ["93.184.216.34"] }]);
    } finally {
      net.restore();
    }
  });
});
