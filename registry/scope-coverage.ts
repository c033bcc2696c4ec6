import { acceptedScopes, capabilities } from "./capabilities.ts";
import { SCOPES, type Scope } from "./scopes.ts";

export interface ScopeCoverage {
  scope: Scope;
  /** REST operations the scope allows, e.g. "GET /collections". */
  operations: readonly string[];
  /** Tool names the scope lists in the assistant's catalog. */
  tools: readonly string[];
}

/**
 * What each scope unlocks, derived from the capabilities so the tokens page and the reference
 * can never drift from what the pipeline checks. An operation whose answer depends on the scopes
 * (the export) is listed under each scope that lets it run.
 */
export const SCOPE_COVERAGE: ReadonlyMap<Scope, ScopeCoverage> = new Map(
  SCOPES.map((scope) => {
    const covered = capabilities.filter((c) => acceptedScopes(c).includes(scope));
    return [
      scope,
      {
        scope,
        operations: [...new Set(covered.flatMap((c) => (c.http ? [`${c.http.method} ${c.http.path}`] : [])))],
        tools: covered.map((c) => c.tool),
      },
    ];
  }),
);

/** Short text for a scope's checkbox: the REST paths it opens, grouped by path. */
export function coverageLine(scope: Scope): string {
  const coverage = SCOPE_COVERAGE.get(scope);
  if (!coverage) return "";
  const byPath = new Map<string, string[]>();
  for (const op of coverage.operations) {
    const [method = "", path = ""] = op.split(" ");
    const base = path.replace(/\/\{[^}]+\}$/, "");
    byPath.set(base, [...new Set([...(byPath.get(base) ?? []), method])]);
  }
  const paths = [...byPath].map(([path, methods]) => `${methods.join("/")} ${path}`);
  const directives = coverage.tools.filter((tool) => !capabilities.find((c) => c.tool === tool)?.http);
  return [...paths, ...(directives.length ? [`assistant: ${directives.join(", ")}`] : [])].join(" · ");
}
