import type { NextRequest } from "next/server";
import { refreshSupabaseSession } from "@/lib/web/supabase-proxy";

export function proxy(request: NextRequest) {
  return refreshSupabaseSession(request);
}

export const config = {
  matcher: ["/settings/:path*", "/sign-in", "/sign-up"],
};
