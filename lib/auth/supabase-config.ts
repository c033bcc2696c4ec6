import { type Env, setting } from "../config/env.ts";

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

export function supabaseAuthConfig(env?: Env): SupabaseAuthConfig | null {
  const url = setting("NEXT_PUBLIC_SUPABASE_URL", env)?.replace(/\/+$/, "");
  const publishableKey =
    setting("NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY", env) ?? setting("NEXT_PUBLIC_SUPABASE_ANON_KEY", env);
  if (!url || !publishableKey) return null;
  return {
    url,
    publishableKey,
    jwtSecret: setting("SUPABASE_JWT_SECRET", env),
    secretKey: setting("SUPABASE_SECRET_KEY", env) ?? setting("SUPABASE_SERVICE_ROLE_KEY", env),
  };
}
