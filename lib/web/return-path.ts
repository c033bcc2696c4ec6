/** Where signing in or up lands when no (acceptable) return path is given. */
export const DEFAULT_RETURN = "/settings/tokens";

/**
 * A return path after signing in: only a path of this site that leads back to an authorization
 * request's consent page or a settings page, never another site (`//host`, `/\host`, a scheme).
 */
export function returnPath(value: string): string {
  if (!/^\/(?:oauth\/authorize\?|settings(?:\/|$))/.test(value)) return DEFAULT_RETURN;
  if (value.startsWith("//") || value.includes("\\") || /[\u0000-\u001f]/.test(value)) return DEFAULT_RETURN;
  return value;
}
