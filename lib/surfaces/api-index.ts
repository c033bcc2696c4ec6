import { requestIdFrom } from "../http/request-id.ts";
import { jsonResponse } from "../http/respond.ts";

/** Where a client that opens the base path goes next: public, the same for everyone. */
export const API_INDEX = {
  openapi: "/api/v1/openapi.json",
  docs: "/docs",
  health: "/api/v1/health",
  tools: "/api/agent/tools",
  mcp: "/api/mcp",
} as const;

/** RFC 8631's relations, for a client that reads links rather than the body. */
const LINK = `<${API_INDEX.openapi}>; rel="service-desc"; type="application/openapi+json", <${API_INDEX.docs}>; rel="service-doc"`;

/** GET /api/v1: a person or client who opens the base path learns where the API is described. */
export async function handleApiIndex(request: Request): Promise<Response> {
  return jsonResponse(200, API_INDEX, requestIdFrom(request.headers), {
    "Cache-Control": "public, max-age=300",
    Link: LINK,
  });
}
