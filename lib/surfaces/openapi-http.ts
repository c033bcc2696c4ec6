import { requestIdFrom } from "../http/request-id.ts";
import { buildOpenApiDocument } from "./openapi.ts";

/** GET /api/v1/openapi.json: public, the same for everyone, cacheable. */
export async function handleOpenApi(request: Request): Promise<Response> {
  return new Response(JSON.stringify(buildOpenApiDocument()), {
    status: 200,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Request-Id": requestIdFrom(request.headers),
      "Cache-Control": "public, max-age=300",
      "Access-Control-Allow-Origin": "*",
    },
  });
}
