/** The service's public base URL: SITE_URL, or this machine's port; no trailing slash. */
export function siteUrlFrom(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return (env.SITE_URL?.trim() || `http://localhost:${env.PORT ?? "3000"}`).replace(/\/+$/, "");
}
