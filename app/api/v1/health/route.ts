import { preflightResponse, withCors } from "@/lib/http/cors";
import { health } from "@/lib/surfaces/health";

export const dynamic = "force-dynamic";

export const GET = withCors(health);
export const OPTIONS = (request: Request) => preflightResponse(request, ["GET"]);
