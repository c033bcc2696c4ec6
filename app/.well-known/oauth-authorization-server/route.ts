import { handleAuthorizationServerMetadata } from "@/lib/surfaces/oauth/metadata";
import { oauthPreflight } from "@/lib/surfaces/oauth/respond";

export const dynamic = "force-dynamic";

export const GET = async (request: Request) => handleAuthorizationServerMetadata(request);
export const OPTIONS = async () => oauthPreflight(["GET"]);
