import { openApiRoute } from "@/lib/surfaces/api-routes";

export const dynamic = "force-dynamic";

export const { GET, OPTIONS } = openApiRoute;
