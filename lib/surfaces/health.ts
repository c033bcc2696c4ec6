import { getDb } from "../db/index.ts";
import { rateLimitStoreStatus } from "../http/rate-limit-store.ts";
import { requestIdFrom } from "../http/request-id.ts";
import { jsonResponse } from "../http/respond.ts";

/**
 * Unauthenticated liveness and readiness: the database answers a query. Not a registry capability.
 * rate_limit_store is informational: "redis_unavailable" means limits hold per instance only.
 */
export async function health(request: Request): Promise<Response> {
  const requestId = requestIdFrom(request.headers);
  try {
    const db = await getDb();
    await db.query("select 1");
    const rateLimitStore = await rateLimitStoreStatus();
    return jsonResponse(200, { status: "ok", database: db.kind, rate_limit_store: rateLimitStore }, requestId);
  } catch (error) {
    console.error(`[${requestId}] health check failed`, error);
    return jsonResponse(503, { status: "unavailable", database: "unreachable" }, requestId);
  }
}
