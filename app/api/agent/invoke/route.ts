import { preflightResponse, withCors } from "@/lib/http/cors";
import { handleInvoke } from "@/lib/surfaces/invoke";

export const dynamic = "force-dynamic";

export const POST = withCors(handleInvoke);
export const OPTIONS = (request: Request) => preflightResponse(request, ["POST"]);
