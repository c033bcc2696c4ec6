import { originRelation } from "./origin.ts";
import { requestIdFrom } from "./request-id.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

const DETAIL =
  "This form was sent from another site, so nothing was changed. Open the page on this site and submit it from there.";

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Request refused · Personal Data Service</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.5">
<main>
<h1>Request refused</h1>
<p>${DETAIL}</p>
<p><a href="/settings">Go to your settings</a></p>
</main>
</body>
</html>
`;

/**
 * A page request that would change something (a server action, a plain form post) sent from
 * another site, or with an Origin that is not a bare origin: 403 with a short page, or
 * problem+json for a client that asks for JSON. Next itself answers a cross-site server action
 * with a 500 ("Invalid Server Actions request"). A request without Origin goes on to each
 * action's own check (lib/web/csrf.ts).
 */
export function crossSiteRefusal(method: string, headers: Headers): Response | undefined {
  if (SAFE_METHODS.has(method) || originRelation(headers) !== "cross") return undefined;
  const requestId = requestIdFrom(headers);
  const common = { "Request-Id": requestId, "Cache-Control": "no-store", Vary: "Origin, Accept" };
  const accept = headers.get("accept") ?? "";
  if (accept.includes("json") && !accept.includes("text/html")) {
    const problem = { type: "about:blank", title: "Forbidden", status: 403, detail: DETAIL, request_id: requestId };
    return new Response(JSON.stringify(problem), {
      status: 403,
      headers: { ...common, "Content-Type": "application/problem+json; charset=utf-8" },
    });
  }
  return new Response(PAGE, { status: 403, headers: { ...common, "Content-Type": "text/html; charset=utf-8" } });
}
