import http from "node:http";
import https from "node:https";
import type { ProviderSettings } from "./config.ts";
import { isDnsFailure } from "./breaker.ts";
import { ProviderError } from "./errors.ts";
import { throughBreaker } from "./http.ts";
import { assertFetchable, BlockedAddressError, guardedLookup } from "./ssrf-guard.ts";

const MAX_BYTES = 2 * 1024 * 1024;
const MAX_REDIRECTS = 5;

export interface Page {
  url: string;
  contentType: string;
  body: string;
}

/**
 * Fetches a page a member pointed us at, with the SSRF guard on every hop: http(s) only, ports
 * 80/443, every resolved address public, at most 5 redirects, 2 MiB read, one timeout per hop.
 */
export async function fetchPage(
  settings: ProviderSettings,
  start: string,
  accept = "text/html",
  /** Stop following redirects at the first target this accepts, without fetching it (short links). */
  stopAt?: (url: URL) => boolean,
): Promise<Page> {
  let url = new URL(start);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (hop > 0 && stopAt?.(url)) return { url: url.href, contentType: "", body: "" };
    try {
      assertFetchable(url);
    } catch {
      throw new ProviderError(settings.id, "refused", `Refusing to fetch ${url.hostname}: not a public address.`);
    }
    // Pages come from any site: one site that is down must not stop the others, so circuits are per host.
    const target = replayed(settings, url);
    const answer = await throughBreaker(`${settings.id}:${url.hostname}`, settings, () =>
      request(settings, target, accept),
    );
    if (answer.location) {
      url = new URL(answer.location, url);
      continue;
    }
    return { url: url.href, contentType: answer.contentType, body: answer.body };
  }
  throw new ProviderError(settings.id, "http_error", "Too many redirects.");
}

/**
 * RESOLVER_HTML_URL (unset in production) sends every page request to a replay server instead, as
 * `{base}/{host}{path}?{query}`: the tests and the evaluation (npm run eval:resolver) serve recorded
 * pages and short-link redirects from 127.0.0.1 while this client, its redirects and its limits run
 * as they do against the web. The address the member gave stays the page's address.
 */
function replayed(settings: ProviderSettings, url: URL): URL {
  return settings.baseUrl ? new URL(`${settings.baseUrl}/${url.host}${url.pathname}${url.search}`) : url;
}

interface Answer {
  location?: string;
  contentType: string;
  body: string;
}

function request(settings: ProviderSettings, url: URL, accept: string): Promise<Answer> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise<Answer>((resolve, reject) => {
    const req = client.get(
      url,
      {
        lookup: guardedLookup,
        headers: { "user-agent": settings.userAgent, accept },
        timeout: settings.timeoutMs,
        signal: settings.signal,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          return resolve({ location: res.headers.location, contentType: "", body: "" });
        }
        if (status === 429) {
          res.resume();
          return reject(new ProviderError(settings.id, "rate_limited", `${url.hostname} is rate limiting us.`));
        }
        if (status < 200 || status >= 300) {
          res.resume();
          const clientError = status >= 400 && status < 500;
          return reject(
            new ProviderError(
              settings.id,
              "http_error",
              `${url.hostname} answered HTTP ${status}.`,
              undefined,
              false,
              clientError,
            ),
          );
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_BYTES) chunks.push(chunk);
          else res.destroy();
        });
        const finish = () =>
          resolve({
            contentType: String(res.headers["content-type"] ?? ""),
            body: Buffer.concat(chunks).toString("utf8"),
          });
        res.on("end", finish);
        res.on("close", finish);
      },
    );
    req.on("timeout", () =>
      req.destroy(new ProviderError(settings.id, "timeout", `${url.hostname} did not answer in time.`)),
    );
    req.on("error", (error) => {
      if (error instanceof ProviderError) return reject(error);
      if (error.name === "AbortError") {
        return reject(new ProviderError(settings.id, "timeout", `${url.hostname} did not answer before the deadline.`));
      }
      if (isDnsFailure(error)) {
        return reject(new ProviderError(settings.id, "network", `${url.hostname} does not resolve.`, undefined, true));
      }
      if (error instanceof BlockedAddressError || (error as NodeJS.ErrnoException).code === "EBLOCKED") {
        return reject(
          new ProviderError(settings.id, "refused", `Refusing to fetch ${url.hostname}: not a public address.`),
        );
      }
      reject(new ProviderError(settings.id, "network", `${url.hostname} could not be reached.`));
    });
  });
}
