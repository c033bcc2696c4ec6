// Generated from lib/surfaces/fixed-routes.ts by scripts/build-rest-routes.ts; do not edit (test/surfaces/static-routes.test.ts).
import { invokeRoute } from "@/lib/surfaces/api-routes";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = invokeRoute;
