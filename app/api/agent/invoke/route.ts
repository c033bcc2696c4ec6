import { handleInvoke } from "@/lib/surfaces/invoke";

export const dynamic = "force-dynamic";

export const POST = handleInvoke;
