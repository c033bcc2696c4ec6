import { handleMcp } from "@/lib/surfaces/mcp";

export const dynamic = "force-dynamic";

export const POST = handleMcp;
export const GET = handleMcp;
export const DELETE = handleMcp;
