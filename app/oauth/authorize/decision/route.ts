import { handleConsentDecision } from "@/lib/web/oauth-consent";

export const dynamic = "force-dynamic";

export const POST = handleConsentDecision;
