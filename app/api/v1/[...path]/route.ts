import { withCors } from "@/lib/http/cors";
import { handleRest, handleRestOptions } from "@/lib/surfaces/rest";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ path: string[] }> };

async function handle(request: Request, context: Context): Promise<Response> {
  const { path } = await context.params;
  return handleRest(request, path);
}

async function options(request: Request, context: Context): Promise<Response> {
  const { path } = await context.params;
  return handleRestOptions(request, path);
}

export const GET = withCors(handle);
export const POST = withCors(handle);
export const PATCH = withCors(handle);
// PUT is routed so that it gets our 405 with the registry's Allow, not Next's.
export const PUT = withCors(handle);
export const DELETE = withCors(handle);
export const OPTIONS = withCors(options);
