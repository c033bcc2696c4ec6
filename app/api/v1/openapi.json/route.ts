import { handleOpenApi } from "@/lib/surfaces/openapi-http";

export const dynamic = "force-dynamic";

export const GET = handleOpenApi;
