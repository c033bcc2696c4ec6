// Generated from the registry by scripts/build-rest-routes.ts; do not edit (test/surfaces/static-routes.test.ts).
// /api/v1/activity/undo as a route of its own, not through the [...path] catch-all (lib/surfaces/rest-route-files.ts).
import { restRoute } from "@/lib/surfaces/rest-route";

export const dynamic = "force-dynamic";

export const { GET, POST, PATCH, PUT, DELETE, OPTIONS } = restRoute(["activity", "undo"]);
