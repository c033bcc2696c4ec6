import http from "node:http";
import https from "node:https";
import { assertFetchable, guardedLookup, isAllowListed } from "./resolver/providers/ssrf-guard.ts";

const TIMEOUT_MS = 3000;
const MAX_REDIRECTS = 3;

export type AudioProbe = { ok: true; url: string; contentType: string } | { ok: false; reason: string };

/**
 * Whether a link of no known platform is an audio file the browser can play: https (http only for
 * a host the operator exempted from the SSRF guard, i.e. tests), a public address at every hop, and
 * an `audio/*` Content-Type. HEAD first; a server that refuses HEAD is asked for its first byte.
 */
export async function probeAudio(start: string): Promise<AudioProbe> {
  let url: URL;
  try {
    url = new URL(start);
  } catch {
    return { ok: false, reason: "The url is not a valid link." };
  }
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (url.protocol !== "https:" && !(url.protocol === "http:" && isAllowListed(url.hostname))) {
      return { ok: false, reason: "A link of no known platform must be an https audio file." };
    }
    try {
      assertFetchable(url);
    } catch {
      return { ok: false, reason: `Refusing to fetch ${url.hostname}: not a public address.` };
    }
    let head: Head;
    try {
      head = await requestHead(url, "HEAD");
      if (head.status === 405 || head.status === 501) head = await requestHead(url, "GET");
    } catch {
      return { ok: false, reason: `${url.hostname} could not be reached to check that the link is audio.` };
    }
    if (head.location && head.status >= 300 && head.status < 400) {
      url = new URL(head.location, url);
      continue;
    }
    if (head.status < 200 || head.status >= 300) return { ok: false, reason: `${url.hostname} answered HTTP ${head.status}.` };
    const contentType = head.contentType.split(";")[0]?.trim().toLowerCase() ?? "";
    if (!contentType.startsWith("audio/")) {
      return { ok: false, reason: `The link is ${contentType || "of no declared type"}, not an audio file.` };
    }
    return { ok: true, url: url.href, contentType };
  }
  return { ok: false, reason: "Too many redirects." };
}

interface Head {
  status: number;
  contentType: string;
  location?: string;
}

/** The status and headers of one request; the body is never read (a GET stops at the headers). */
function requestHead(url: URL, method: "HEAD" | "GET"): Promise<Head> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise<Head>((resolve, reject) => {
    const req = client.request(
      url,
      {
        method,
        lookup: guardedLookup,
        timeout: TIMEOUT_MS,
        headers: { accept: "audio/*", ...(method === "GET" ? { range: "bytes=0-0" } : {}) },
      },
      (res) => {
        resolve({
          status: res.statusCode === 206 ? 200 : (res.statusCode ?? 0),
          contentType: String(res.headers["content-type"] ?? ""),
          location: res.headers.location,
        });
        res.destroy();
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", reject);
    req.end();
  });
}
