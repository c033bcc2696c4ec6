import { preflightResponse, withCors } from "@/lib/http/cors";
import { handleToolCatalog } from "@/lib/surfaces/tools-http";

export const dynamic = "force-dynamic";

export const GET = withCors(handleToolCatalog);
export const OPTIONS = (request: Request) => preflightResponse(request, ["GET"]);
