import type { Env } from "../db/config.ts";
/** A Supabase project's Auth, when configured: the settings pages then sign in through it. */
export interface SupabaseAuthConfig {
  url: string;
  /** The publishable key (sb_publishable_…) or the legacy anon key. */
  publishableKey: string;
  /** Legacy projects sign JWTs with a shared HS256 secret instead of (or before) asymmetric keys. */
  jwtSecret?: string;
  /** The secret key (sb_secret_…) or legacy service role key: admin API only (deleting a user). */
  secretKey?: string;
}

export function supabaseAuthConfig(env: Env = process.env): SupabaseAuthConfig | null {
  const url = env.NEXT_PUBLIC_SUPABASE_URL?.trim().replace(/\/+$/, "");
  const publishableKey = (env.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY || env.NEXT_PUBLIC_SUPABASE_ANON_KEY)?.trim();
  if (!url || !publishableKey) return null;
  return {
    url,
    publishableKey,
    jwtSecret: env.SUPABASE_JWT_SECRET?.trim() || undefined,
    secretKey: (env.SUPABASE_SECRET_KEY || env.SUPABASE_SERVICE_ROLE_KEY)?.trim() || undefined,
  };
}
