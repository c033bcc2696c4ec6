import { receiveUpload } from "@/lib/domain/uploads/receive";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ key: string[] }> };

/** The local storage driver's endpoint: signed PUTs of upload bytes, outside /api/v1. */
async function handle(request: Request, context: Context): Promise<Response> {
  const { key } = await context.params;
  return receiveUpload(request, key);
}

export const PUT = handle;
export const GET = handle;
export const POST = handle;
export const PATCH = handle;
export const DELETE = handle;
