import { handleRevoke } from "@/lib/surfaces/oauth/endpoints";
import { oauthPreflight } from "@/lib/surfaces/oauth/respond";

export const dynamic = "force-dynamic";

export const POST = handleRevoke;
export const OPTIONS = async () => oauthPreflight(["POST"]);
