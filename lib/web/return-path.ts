/** Where signing in or up lands when no (acceptable) return path is given. */
export const DEFAULT_RETURN = "/settings/tokens";

/**
 * A return path after signing in: only a path of this site that leads back to an authorization
 * request's consent page or a settings page, never another site (`//host`, `/\host`, a scheme).
 */
export function returnPath(value: string): string {
  if (!/^\/(?:oauth\/authorize\?|settings(?:\/|$))/.test(value)) return DEFAULT_RETURN;
  const control = [...value].some((char) => char.charCodeAt(0) < 0x20);
  if (value.startsWith("//") || value.includes("\\") || control) return DEFAULT_RETURN;
  return value;
}
