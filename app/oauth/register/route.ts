import { handleRegister } from "@/lib/surfaces/oauth/endpoints";
import { oauthPreflight } from "@/lib/surfaces/oauth/respond";

export const dynamic = "force-dynamic";

export const POST = handleRegister;
export const OPTIONS = async () => oauthPreflight(["POST"]);
