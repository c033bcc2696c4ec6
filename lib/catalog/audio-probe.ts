import { BlockedAddressError } from "../net/ssrf-guard.ts";
import { type GuardedFetchOptions, type GuardedResponse, guardedFetch } from "../net/guarded-fetch.ts";
import { isAllowListed } from "./providers/ssrf-guard.ts";

export type AudioProbe = { ok: true; url: string; contentType: string } | { ok: false; reason: string };

// https at every hop (http only to a host the operator exempted from the SSRF guard, i.e. tests),
// at most 3 redirects, and only the headers: the type is the question, not the bytes.
const PROBE: GuardedFetchOptions = {
  accept: "audio/*",
  timeoutMs: 3000,
  maxRedirects: 3,
  allowHost: isAllowListed,
  headersOnly: true,
  httpsOnly: true,
};

/**
 * Whether a link of no known platform is an audio file the browser can play: a public address at
 * every hop (guardedFetch) and an `audio/*` Content-Type. HEAD first; a server that refuses HEAD
 * is asked for its first byte.
 */
export async function probeAudio(start: string): Promise<AudioProbe> {
  let url: URL;
  try {
    url = new URL(start);
  } catch {
    return { ok: false, reason: "The url is not a valid link." };
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isAllowListed(url.hostname))) {
    return { ok: false, reason: "A link of no known platform must be an https audio file." };
  }
  let head: GuardedResponse;
  try {
    head = await guardedFetch(url, { ...PROBE, method: "HEAD" });
    if (head.status === 405 || head.status === 501) {
      head = await guardedFetch(url, { ...PROBE, method: "GET", headers: { range: "bytes=0-0" } });
    }
  } catch (error) {
    return error instanceof BlockedAddressError
      ? { ok: false, reason: `Refusing to fetch ${error.hostname}: not a public https address.` }
      : { ok: false, reason: `${url.hostname} could not be reached to check that the link is audio.` };
  }
  if (head.status < 200 || head.status >= 300)
    return { ok: false, reason: `${url.hostname} answered HTTP ${head.status}.` };
  const contentType = head.contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!contentType.startsWith("audio/")) {
    return { ok: false, reason: `The link is ${contentType || "of no declared type"}, not an audio file.` };
  }
  return { ok: true, url: head.url, contentType };
}
