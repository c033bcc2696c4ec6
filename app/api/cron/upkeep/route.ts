import { cronUpkeep } from "@/lib/upkeep/cron-route";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return cronUpkeep(request);
}
