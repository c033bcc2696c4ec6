import { preflightResponse, withCors } from "@/lib/http/cors";
import { handleOpenApi } from "@/lib/surfaces/openapi-http";

export const dynamic = "force-dynamic";

export const GET = withCors(handleOpenApi);
export const OPTIONS = (request: Request) => preflightResponse(request, ["GET"]);
