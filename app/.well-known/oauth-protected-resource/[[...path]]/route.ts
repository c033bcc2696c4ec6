import { handleProtectedResourceMetadata } from "@/lib/surfaces/oauth/metadata";
import { oauthPreflight } from "@/lib/surfaces/oauth/respond";

export const dynamic = "force-dynamic";

export async function GET(request: Request, context: { params: Promise<{ path?: string[] }> }) {
  return handleProtectedResourceMetadata(request, (await context.params).path ?? []);
}

export const OPTIONS = async () => oauthPreflight(["GET"]);
