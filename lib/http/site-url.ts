import { type Env, setting } from "../config/env.ts";

/** The service's public base URL: SITE_URL, or this machine's port; no trailing slash. */
export function siteUrlFrom(env?: Env): string {
  return (setting("SITE_URL", env) ?? `http://localhost:${setting("PORT", env)}`).replace(/\/+$/, "");
}
