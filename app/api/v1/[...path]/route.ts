import { restRoute } from "@/lib/surfaces/rest-route";

export const dynamic = "force-dynamic";

// Every path the registry has; fixed paths also have route files of their own (generated, faster).
const route = restRoute();
export const GET = route.GET;
export const POST = route.POST;
export const PATCH = route.PATCH;
// PUT is routed so that it gets our 405 with the registry's Allow, not Next's.
export const PUT = route.PUT;
export const DELETE = route.DELETE;
export const OPTIONS = route.OPTIONS;
