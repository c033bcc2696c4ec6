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

/** What each family is about, one phrase; the tokens page and the reference add what it covers. */
export const SCOPE_FAMILY_DESCRIPTIONS: Readonly<Record<ScopeFamily, string>> = {
  collections: "Your collections and the collection types you use",
  goals: "Your goals and their progress",
  items: "Items in your collections, catalog search and link resolving",
  messages: "Direct messages you send and receive",
  profile: "Your profile: handle, display name, avatar, timezone",
  social: "Who you follow, your followers, and channels",
  streaks: "Habit streaks and their check-ins",
  todos: "Your todos, recurrences and reminders",
  webhooks: "Your webhook endpoints and their deliveries",
};

/** A one-line description of a scope; `registry/scope-coverage.ts` lists what it unlocks. */
export function describeScope(scope: Scope): string {
  const [family, access] = scope.split(":") as [ScopeFamily, "read" | "write"];
  return `${access === "read" ? "Read" : "Create, change and delete"}: ${SCOPE_FAMILY_DESCRIPTIONS[family].charAt(0).toLowerCase()}${SCOPE_FAMILY_DESCRIPTIONS[family].slice(1)}.`;
}
