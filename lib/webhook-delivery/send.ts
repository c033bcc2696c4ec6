import http from "node:http";
import https from "node:https";
import { WEBHOOK_LIMITS } from "../../registry/events.ts";
import { BlockedAddressError, guardedLookupFor } from "../net/ssrf-guard.ts";
import { assertWebhookUrl, webhookAllowHost } from "../net/webhook-url.ts";

export interface SendResult {
  /** HTTP status; null when no answer arrived. */
  status: number | null;
  error: string | null;
  durationMs: number;
}

const lookup = guardedLookupFor(webhookAllowHost);

/**
 * One attempt: POST with the SSRF guard (checked again now, whatever the URL looked like when it
 * was saved), a 10 s deadline for the whole exchange, redirects not followed (a 3xx is a failure),
 * and at most 64 KB of the answer read.
 */
export function sendWebhook(target: string, body: string, headers: Record<string, string>): Promise<SendResult> {
  const started = performance.now();
  const done = (status: number | null, error: string | null): SendResult => ({
    status,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  let url: URL;
  try {
    url = new URL(target);
    assertWebhookUrl(url);
  } catch {
    return Promise.resolve(done(null, "refused: not a public https address"));
  }
  const client = url.protocol === "https:" ? https : http;
  return new Promise<SendResult>((resolve) => {
    const req = client.request(
      url,
      {
        method: "POST",
        lookup,
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
          "user-agent": "personal-data-service-webhooks/1",
        },
      },
      (res) => {
        let read = 0;
        res.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > WEBHOOK_LIMITS.maxResponseBytes) res.destroy();
        });
        const finish = () => {
          clearTimeout(deadline);
          const status = res.statusCode ?? 0;
          resolve(done(status, status >= 200 && status < 300 ? null : `HTTP ${status}`));
        };
        res.on("end", finish);
        res.on("close", finish);
        res.on("error", finish);
      },
    );
    const deadline = setTimeout(() => {
      req.destroy(new Error(`no answer within ${WEBHOOK_LIMITS.timeoutSeconds} s`));
    }, WEBHOOK_LIMITS.timeoutSeconds * 1000);
    req.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(deadline);
      const refused = error instanceof BlockedAddressError || error.code === "EBLOCKED";
      resolve(done(null, refused ? "refused: the host resolves to a private address" : error.message.slice(0, 300)));
    });
    req.end(body);
  });
}
