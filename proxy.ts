import { type NextRequest, NextResponse } from "next/server";
import { malformedPathResponse } from "./lib/http/path-segments.ts";

// Runs before routing: Next answers 500 for an API path it cannot percent-decode. The logic is in
// lib/http so serve-rest.ts shares it.
export function proxy(request: NextRequest) {
  return malformedPathResponse(request.nextUrl.pathname, request.headers) ?? NextResponse.next();
}

export const config = { matcher: "/api/:path*" };
