import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addressFromChain,
  CLIENT_ADDRESS_HEADER,
  clientAddress,
  serverWritesClientAddress,
  settleForwarding,
  trustedProxyHops,
} from "@/lib/http/client-address";
import { FREE_FAILURES } from "@/lib/auth/sessions-throttle";
import { getDb } from "@/lib/db";
import { signIn } from "@/lib/web/accounts";

type Holder = typeof globalThis & { __pdsServerWritesClientAddress?: boolean };

/**
 * What server.ts does with every request (settleForwarding with TRUSTED_PROXY_HOPS), behind a
 * real socket, then what the sign-in action does with the headers Next hands it: the address it
 * throttles by, and one sign-in attempt.
 */
async function serve(hops: number) {
  const server = http.createServer((req, res) => {
    settleForwarding(req, hops);
    const headers = new Headers(req.headers as Record<string, string>);
    const address = clientAddress(headers);
    const email = String(req.headers["x-test-email"] ?? "");
    void (email ? signIn(email, "a wrong password", address) : Promise.resolve(null)).then((result) =>
      res.end(JSON.stringify({ address, forwardedHost: headers.get("x-forwarded-host"), result })),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sign-in`;
  return {
    ask: async (headers: Record<string, string>) =>
      (await (await fetch(url, { headers })).json()) as {
        address: string;
        forwardedHost: string | null;
        result: { ok: boolean; error?: string } | null;
      },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("the client address the sign-in throttle counts", () => {
  beforeAll(async () => {
    await getDb();
    serverWritesClientAddress();
  });
  afterAll(() => {
    delete (globalThis as Holder).__pdsServerWritesClientAddress;
  });

  it("is the socket's by default: rotating X-Forwarded-For does not escape the throttle", async () => {
    const server = await serve(0);
    try {
      const email = `nobody-${randomUUID()}@example.test`;
      const answers = [];
      for (let i = 1; i <= FREE_FAILURES + 1; i++) {
        answers.push(
          await server.ask({
            "x-test-email": email,
            "x-forwarded-for": `198.51.100.${i}`,
            "x-real-ip": `198.51.100.${i}`,
            [CLIENT_ADDRESS_HEADER]: `198.51.100.${i}`,
            "x-forwarded-host": "evil.example",
          }),
        );
      }
      expect(new Set(answers.map((answer) => answer.address))).toEqual(new Set(["127.0.0.1"]));
      expect(answers.map((answer) => answer.forwardedHost)).toEqual(Array(FREE_FAILURES + 1).fill(null));
      expect(answers.at(-1)?.result?.error).toMatch(/^Too many failed attempts\./);
    } finally {
      await server.close();
    }
  });

  it("with TRUSTED_PROXY_HOPS, is the address the outermost trusted proxy saw", async () => {
    const one = await serve(1);
    const two = await serve(2);
    try {
      expect((await one.ask({ "x-forwarded-for": "6.6.6.6, 203.0.113.7" })).address).toBe("203.0.113.7");
      expect((await one.ask({ "x-forwarded-for": "203.0.113.7" })).address).toBe("203.0.113.7");
      expect((await one.ask({})).address).toBe("127.0.0.1");
      expect((await one.ask({ "x-forwarded-host": "pds.example" })).forwardedHost).toBe("pds.example");
      expect((await two.ask({ "x-forwarded-for": "6.6.6.6, 203.0.113.8, 10.0.0.1" })).address).toBe("203.0.113.8");
      expect((await two.ask({ "x-forwarded-for": "203.0.113.8" })).address).toBe("203.0.113.8");

      // What the client writes to the left of the proxy's entry changes nothing.
      const email = `nobody-${randomUUID()}@example.test`;
      const answers = [];
      for (let i = 1; i <= FREE_FAILURES + 1; i++) {
        answers.push(await one.ask({ "x-test-email": email, "x-forwarded-for": `198.51.100.${i}, 203.0.113.9` }));
      }
      expect(answers.at(-1)?.result?.error).toMatch(/^Too many failed attempts\./);
      // Another client behind the same proxy has its own count.
      const other = await one.ask({ "x-test-email": email, "x-forwarded-for": "203.0.113.10" });
      expect(other.result?.error).not.toMatch(/^Too many/);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});

describe("TRUSTED_PROXY_HOPS and the forwarded chain", () => {
  it("reads a whole number from 0 to 10 and refuses anything else", () => {
    expect(trustedProxyHops({})).toBe(0);
    expect(trustedProxyHops({ TRUSTED_PROXY_HOPS: " 2 " })).toBe(2);
    for (const bad of ["-1", "1.5", "one", "11", "0x1"]) {
      expect(() => trustedProxyHops({ TRUSTED_PROXY_HOPS: bad })).toThrow(/TRUSTED_PROXY_HOPS/);
    }
  });

  it.each([
    ["127.0.0.1", "203.0.113.1", 0, "127.0.0.1"],
    ["::ffff:127.0.0.1", undefined, 0, "127.0.0.1"],
    ["::1", undefined, 0, "::1"],
    ["10.0.0.1", "203.0.113.1, 10.0.0.2", 1, "10.0.0.2"],
    ["10.0.0.1", "203.0.113.1, 10.0.0.2", 2, "203.0.113.1"],
    ["10.0.0.1", "203.0.113.1", 3, "203.0.113.1"],
    ["10.0.0.1", "203.0.113.1:5123", 1, "203.0.113.1"],
    ["10.0.0.1", "[2001:DB8::1]:443", 1, "2001:db8::1"],
    ["10.0.0.1", "not-an-address", 1, "10.0.0.1"],
    ["10.0.0.1", "", 1, "10.0.0.1"],
    [undefined, undefined, 0, "unknown"],
  ])("socket %s, X-Forwarded-For %s, %i hops: %s", (socket, chain, hops, expected) => {
    expect(addressFromChain(socket, chain, hops)).toBe(expected);
  });

  it("trusts Vercel's own header on Vercel only, and a client's copy of ours never without server.ts", () => {
    const headers = new Headers({ "x-vercel-forwarded-for": "203.0.113.5", [CLIENT_ADDRESS_HEADER]: "6.6.6.6" });
    expect(clientAddress(headers, { VERCEL: "1" })).toBe("203.0.113.5");
    expect(clientAddress(headers, {})).toBe("unknown");
    expect(clientAddress(new Headers({ "x-forwarded-for": "6.6.6.6" }), {})).toBe("unknown");
  });
});
