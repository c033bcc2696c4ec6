import { handleToolCatalog } from "@/lib/surfaces/tools-http";

export const dynamic = "force-dynamic";

export const GET = handleToolCatalog;
