/** The sixteen scopes of the spec (eight families, each with :read and :write), plus webhooks. */
export const SCOPE_FAMILIES = [
  "collections",
  "goals",
  "items",
  "messages",
  "profile",
  "social",
  "streaks",
  "todos",
  "webhooks",
] as const;
export type ScopeFamily = (typeof SCOPE_FAMILIES)[number];
export type Scope = `${ScopeFamily}:${"read" | "write"}`;

export const SCOPES: readonly Scope[] = SCOPE_FAMILIES.flatMap((family) => [
  `${family}:read` as const,
  `${family}:write` as const,
]);

export const READ_ONLY_SCOPES: readonly Scope[] = SCOPES.filter((scope) => scope.endsWith(":read"));

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
