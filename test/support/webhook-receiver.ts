import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: any;
  at: number;
}

/**
 * A real receiver on 127.0.0.1: records every POST; `answer` decides the status (200 unless told;
 * 0 leaves the request unanswered).
 */
export async function startReceiver(answer: (received: Received) => number = () => 200) {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const one = { headers: req.headers, body, json: JSON.parse(body), at: Date.now() };
      received.push(one);
      const status = answer(one);
      // 0: hold the request unanswered (a receiver that hangs).
      if (status) res.writeHead(status).end("ok");
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** Resolves once `count` requests arrived (or rejects after ms). */
    async waitFor(count: number, ms = 10_000) {
      const deadline = Date.now() + ms;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} of ${count}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Verifies with the standardwebhooks package; throws when no signature matches. */
export function verifyStandard(secret: string, received: Received): unknown {
  return new Webhook(secret).verify(received.body, {
    "webhook-id": String(received.headers["webhook-id"]),
    "webhook-timestamp": String(received.headers["webhook-timestamp"]),
    "webhook-signature": String(received.headers["webhook-signature"]),
  });
}

/** The plain check a receiver of X-Service-Signature writes: HMAC-SHA256 of "<t>.<body>" with the secret's bytes. */
export function verifyServiceSignature(secret: string, received: Received): boolean {
  const header = String(received.headers["x-service-signature"]);
  const parts = header.split(",").map((part) => part.split("=", 2) as [string, string]);
  const t = parts.find(([k]) => k === "t")?.[1];
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${t}.${received.body}`).digest();
  return parts
    .filter(([k]) => k === "v1")
    .some(([, v]) => {
      const given = Buffer.from(v, "hex");
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}
