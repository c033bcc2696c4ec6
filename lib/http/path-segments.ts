import { ApiError } from "./problem.ts";
import { requestIdFrom } from "./request-id.ts";
import { problemResponse } from "./respond.ts";

/**
 * A path's segments, percent-decoded, or null when one is not valid percent-encoded UTF-8
 * ("%zz", a cut "%E0%A4%A", an encoded lone surrogate). Decoding those throws, which Next and
 * node:http turn into a 500; such a path is the client's mistake.
 */
export function decodePathSegments(pathname: string): string[] | null {
  try {
    return pathname.split("/").filter(Boolean).map(decodeURIComponent);
  } catch {
    return null;
  }
}

/** 400 malformed_request for a path that cannot be decoded; undefined for one that can. */
export function malformedPathResponse(pathname: string, headers: Headers): Response | undefined {
  if (decodePathSegments(pathname)) return undefined;
  const requestId = requestIdFrom(headers);
  const error = new ApiError("malformed_request", "The path is not valid percent-encoded UTF-8.");
  return problemResponse(error, requestId);
}
