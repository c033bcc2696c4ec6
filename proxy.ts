import { type NextRequest, NextResponse } from "next/server";
import { crossSiteRefusal } from "./lib/http/cross-site.ts";
import { malformedPathResponse } from "./lib/http/path-segments.ts";
import { refreshSupabaseSession } from "./lib/web/supabase-proxy.ts";

const SIGN_IN_PAGES = /^\/(?:settings(?:\/|$)|sign-in$|sign-up$|oauth\/authorize(?:\/|$))/;

// Runs before routing. API paths: Next answers 500 for a path it cannot percent-decode (the logic
// is in lib/http so serve-rest.ts shares it). Pages: a state-changing request from another site is
// refused with 403 before Next's server-action check answers it 500 (lib/http/cross-site.ts); the
// Supabase session cookie is refreshed (Supabase mode only; lib/web/supabase-proxy.ts).
export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (pathname.startsWith("/api/")) return malformedPathResponse(pathname, request.headers) ?? NextResponse.next();
  const refused = crossSiteRefusal(request.method, request.headers);
  if (refused) return refused;
  const response = SIGN_IN_PAGES.test(pathname) ? await refreshSupabaseSession(request) : NextResponse.next();
  // The consent page must never be framed by another site (a click on Approve could be stolen).
  if (pathname.startsWith("/oauth/authorize")) {
    response.headers.set("X-Frame-Options", "DENY");
    response.headers.set("Content-Security-Policy", "frame-ancestors 'none'");
  }
  return response;
}

// API paths only when they hold a "%": only percent-encoding can fail to decode, and a proxy pass
// costs each API request a second request object and Next's middleware bookkeeping (bench/results).
// Other pages only when the request carries an Origin: browsers send one with a POST (a server
// action, a form), not when loading a page. /storage/ is signed uploads and media, not forms.
export const config = {
  matcher: [
    "/api/:path(.*%.*)",
    "/settings/:path*",
    "/sign-in",
    "/sign-up",
    "/oauth/authorize/:path*",
    // The OAuth token, registration and revocation endpoints are called from any origin, never with cookies.
    {
      source: "/((?!api/|_next/|storage/|oauth/token|oauth/register|oauth/revoke).*)",
      has: [{ type: "header", key: "origin" }],
    },
  ],
};
