import { type NextRequest, NextResponse } from "next/server";
import { malformedPathResponse } from "./lib/http/path-segments.ts";
import { refreshSupabaseSession } from "./lib/web/supabase-proxy.ts";

// Runs before routing. API paths: Next answers 500 for a path it cannot percent-decode (the logic
// is in lib/http so serve-rest.ts shares it). Pages: the Supabase session cookie is refreshed
// (Supabase mode only; lib/web/supabase-proxy.ts).
export function proxy(request: NextRequest) {
  if (request.nextUrl.pathname.startsWith("/api/")) {
    return malformedPathResponse(request.nextUrl.pathname, request.headers) ?? NextResponse.next();
  }
  return refreshSupabaseSession(request);
}

// API paths only when they hold a "%": only percent-encoding can fail to decode, and a proxy pass
// costs each API request a second request object and Next's middleware bookkeeping (bench/results).
export const config = { matcher: ["/api/:path(.*%.*)", "/settings/:path*", "/sign-in", "/sign-up"] };
