import { serveMedia } from "@/lib/domain/uploads/serve";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ key: string[] }> };

/** The local storage driver's signed downloads (export links), outside /api/v1. */
async function handle(request: Request, context: Context): Promise<Response> {
  const { key } = await context.params;
  return serveMedia(request, key);
}

export const GET = handle;
export const HEAD = handle;
