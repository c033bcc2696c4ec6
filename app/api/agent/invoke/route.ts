import { invokeRoute } from "@/lib/surfaces/api-routes";

export const dynamic = "force-dynamic";

export const { POST, OPTIONS } = invokeRoute;
