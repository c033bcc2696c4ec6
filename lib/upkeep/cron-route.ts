import { type Env, setting } from "../config/env.ts";
import { timingSafeEqual } from "node:crypto";
import { everyMethod } from "../http/method-not-allowed.ts";
import { runUpkeep } from "./run.ts";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store" },
  });

/**
 * GET /api/cron/upkeep, as Vercel Cron calls it: `Authorization: Bearer $CRON_SECRET`. Without
 * CRON_SECRET configured the route is closed (503) rather than open to anyone.
 */
export async function cronUpkeep(request: Request, env?: Env): Promise<Response> {
  const secret = setting("CRON_SECRET", env);
  if (!secret) return json(503, { error: "CRON_SECRET is not set; the upkeep route is closed." });
  const given = Buffer.from(request.headers.get("authorization") ?? "");
  const expected = Buffer.from(`Bearer ${secret}`);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return new Response(JSON.stringify({ error: "unauthorized" }), {
      status: 401,
      headers: { "content-type": "application/json", "www-authenticate": "Bearer" },
    });
  }
  return json(200, await runUpkeep());
}

/** The route's methods (its app/ route file is generated from lib/surfaces/fixed-routes.ts). */
export const cronRoute = everyMethod({ GET: (request: Request) => cronUpkeep(request) });
