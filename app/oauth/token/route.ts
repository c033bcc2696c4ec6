import { handleToken } from "@/lib/surfaces/oauth/endpoints";
import { oauthPreflight } from "@/lib/surfaces/oauth/respond";

export const dynamic = "force-dynamic";

export const POST = handleToken;
export const OPTIONS = async () => oauthPreflight(["POST"]);
