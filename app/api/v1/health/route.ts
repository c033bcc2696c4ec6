import { health } from "@/lib/surfaces/health";

export const dynamic = "force-dynamic";

export const GET = health;
