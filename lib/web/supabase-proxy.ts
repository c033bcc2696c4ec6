import { createServerClient } from "@supabase/ssr";
import { type NextRequest, NextResponse } from "next/server";
import { supabaseAuthConfig } from "../auth/supabase-config.ts";

/**
 * Supabase mode: refreshes the session cookie before a settings page renders (a Server Component
 * cannot write cookies), as @supabase/ssr's Next guide prescribes: the refreshed cookies go both
 * onto the request the page sees and onto the response the browser keeps. Built-in mode: nothing.
 */
export async function refreshSupabaseSession(request: NextRequest): Promise<NextResponse> {
  const config = supabaseAuthConfig();
  let response = NextResponse.next({ request });
  if (!config) return response;
  const supabase = createServerClient(config.url, config.publishableKey, {
    cookies: {
      getAll: () => request.cookies.getAll(),
      setAll(cookiesToSet) {
        for (const { name, value } of cookiesToSet) request.cookies.set(name, value);
        response = NextResponse.next({ request });
        for (const { name, value, options } of cookiesToSet) response.cookies.set(name, value, options);
      },
    },
  });
  // Nothing may run between creating the client and this call (the guide's warning): it is what
  // refreshes an expired access token. The page verifies the token again before acting.
  await supabase.auth.getClaims();
  return response;
}
