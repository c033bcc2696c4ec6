import type { IncomingMessage } from "node:http";
import { ApiError } from "./problem.ts";
import { requestIdFrom } from "./request-id.ts";
import { problemResponse } from "./respond.ts";

/** The methods the server answers somewhere: what OPTIONS * lists (RFC 9110 §9.3.7). */
export const SERVER_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

const ABSOLUTE_FORM = /^https?:\/\/([^/?#]*)(.*)$/i;
/** A Host value: reg-name, IPv4 or [IP-literal], and a port; nothing that would end the authority. */
const HOST = /^[A-Za-z0-9\-._~!$&'()*+,;=%[\]:]+$/;

/**
 * Readies a request's target for routing, or answers the request when it has nothing to route
 * (RFC 9112 §3.2). Origin-form ("/path?query") goes on as it is. Absolute-form
 * ("http://host/path?query", what a proxy is sent) becomes origin-form, its authority replacing
 * Host (§3.2.2). Asterisk-form ("*") is about the server as a whole: OPTIONS gets the methods it
 * offers, any other method 400. Any other target, or a Host that is missing its value, is not a
 * host or comes twice, is 400 (§3.2).
 * Next's router and new URL() throw on these, which was a 500.
 */
export function routeTarget(req: IncomingMessage): Response | null {
  const target = req.url ?? "";
  if (target === "*") {
    if (req.method === "OPTIONS") {
      return new Response(null, { status: 200, headers: { Allow: SERVER_METHODS, "Content-Length": "0" } });
    }
    return refuse(req, `The target * (asterisk-form) is for OPTIONS only, not ${req.method}.`);
  }
  const absolute = ABSOLUTE_FORM.exec(target);
  if (absolute) {
    const [, authority = "", rest = ""] = absolute;
    if (!validHost(authority))
      return refuse(req, "The request target's authority is not a host (and may not carry user info).");
    if (rest !== "" && !rest.startsWith("/") && !rest.startsWith("?"))
      return refuse(req, "The request target is not a URL.");
    req.url = rest.startsWith("/") ? rest : `/${rest}`;
    req.headers.host = authority;
  } else if (!target.startsWith("/")) {
    return refuse(req, "The request target must be a path (/…), an http(s) URL, or * for OPTIONS.");
  }
  if (hostCount(req.rawHeaders) > 1) return refuse(req, "The request has more than one Host header.");
  if (req.headers.host !== undefined && !validHost(req.headers.host))
    return refuse(req, "The Host header is not a host.");
  return null;
}

// Every request passes here (the API's hot path): count Host lines without building headersDistinct's
// object, and parse a Host only when it differs from the last one found valid (nearly every request
// of a server carries the same).
function hostCount(raw: string[]): number {
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]?.length === 4 && raw[i]?.toLowerCase() === "host") count++;
  return count;
}

let lastValidHost = "";

function validHost(host: string): boolean {
  if (host === lastValidHost) return true;
  if (!HOST.test(host)) return false;
  try {
    if (new URL(`http://${host}/`).pathname !== "/") return false;
  } catch {
    return false;
  }
  lastValidHost = host;
  return true;
}

function refuse(req: IncomingMessage, detail: string): Response {
  return problemResponse(new ApiError("malformed_request", detail), nodeRequestId(req));
}

/** requestIdFrom for a request not (yet) made a fetch Request. */
export function nodeRequestId(req: IncomingMessage): string {
  const headers = new Headers();
  for (const name of ["request-id", "x-request-id"]) {
    const value = req.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  return requestIdFrom(headers);
}
