import http from "node:http";
import https from "node:https";
import { type AllowHost, assertPublicUrl, BlockedAddressError, guardedLookupFor } from "./ssrf-guard.ts";

export interface GuardedFetchOptions {
  accept?: string;
  userAgent?: string;
  /** Per hop. */
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  /** Hosts exempt from the guard (tests, local development); none by default. */
  allowHost?: AllowHost;
  method?: "GET" | "HEAD";
  /** Request headers beside accept and user-agent (e.g. a Range). */
  headers?: Record<string, string>;
  /** Answer with the status and headers only: the body is never read (a media file's type, not its bytes). */
  headersOnly?: boolean;
  /** Every hop must be https, except to an exempt host. */
  httpsOnly?: boolean;
}

export interface GuardedResponse {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  contentType: string;
  body: string;
}

/** Not refused by the guard, but not fetched either: timeout, too large, too many redirects, network. */
export class GuardedFetchError extends Error {}

const nobody: AllowHost = () => false;

/**
 * A GET of a URL someone else chose (OAuth client metadata documents, and any future fetch of a
 * member's URL), through the SSRF guard on every hop: http(s) on ports 80/443, every address the
 * name resolves to public, the connection made to the checked address. Throws BlockedAddressError
 * when the guard refuses a hop; any status is returned, redirects are followed (5 by default).
 */
export async function guardedFetch(start: string | URL, options: GuardedFetchOptions = {}): Promise<GuardedResponse> {
  const allowHost = options.allowHost ?? nobody;
  const lookup = guardedLookupFor(allowHost);
  let url = new URL(start);
  for (let hop = 0; hop <= (options.maxRedirects ?? 5); hop++) {
    assertPublicUrl(url, allowHost);
    if (options.httpsOnly && url.protocol !== "https:" && !allowHost(url.hostname)) {
      throw new BlockedAddressError(url.hostname);
    }
    const answer = await get(url, lookup, options);
    if (answer.location === undefined) return { url: url.href, ...answer };
    url = new URL(answer.location, url);
  }
  throw new GuardedFetchError("Too many redirects.");
}

function get(url: URL, lookup: ReturnType<typeof guardedLookupFor>, options: GuardedFetchOptions) {
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const client = url.protocol === "https:" ? https : http;
  return new Promise<Omit<GuardedResponse, "url"> & { location?: string }>((resolve, reject) => {
    const headers = {
      accept: options.accept ?? "application/json",
      "user-agent": options.userAgent ?? "personal-data-service/1",
      ...options.headers,
    };
    const method = options.method ?? "GET";
    const req = client.request(url, { method, lookup, headers, timeout: options.timeoutMs ?? 5000 }, (res) => {
      const status = res.statusCode ?? 0;
      const contentType = String(res.headers["content-type"] ?? "");
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        return resolve({ status, contentType, body: "", location: res.headers.location });
      }
      if (options.headersOnly || method === "HEAD") {
        res.destroy();
        return resolve({ status, contentType, body: "" });
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size <= maxBytes) chunks.push(chunk);
        else res.destroy(new GuardedFetchError(`The answer is larger than ${maxBytes} bytes.`));
      });
      res.on("error", reject);
      res.on("end", () => resolve({ status, contentType, body: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("timeout", () => req.destroy(new GuardedFetchError(`${url.hostname} did not answer in time.`)));
    req.end();
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (error instanceof GuardedFetchError || error instanceof BlockedAddressError) return reject(error);
      reject(error.code === "EBLOCKED" ? new BlockedAddressError(url.hostname) : new GuardedFetchError(error.message));
    });
  });
}
