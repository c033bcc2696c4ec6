import { restRoute } from "@/lib/surfaces/rest-route";

export const dynamic = "force-dynamic";

// Every path the registry has; fixed paths also have route files of their own (generated, faster).
// PUT is routed so that it gets our 405 with the registry's Allow, not Next's.
export const { GET, POST, PATCH, PUT, DELETE, OPTIONS } = restRoute();
