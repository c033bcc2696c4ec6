import { type Capability, capabilities, type HttpMethod } from "../../registry/capabilities.ts";

/** The REST route table, derived from the capabilities: method + path pattern → capability. */
export interface Route {
  capability: Capability;
  method: HttpMethod;
  segments: readonly string[];
}

export const routes: readonly Route[] = capabilities.flatMap((capability) =>
  capability.http
    ? [{ capability, method: capability.http.method, segments: capability.http.path.split("/").filter(Boolean) }]
    : [],
);

export type Match =
  | { kind: "found"; route: Route; params: Record<string, string> }
  | { kind: "method_not_allowed"; allow: HttpMethod[] }
  | { kind: "not_found" };

export function matchRoute(method: string, path: readonly string[]): Match {
  const allow: HttpMethod[] = [];
  for (const route of routes) {
    const params = matchSegments(route.segments, path);
    if (!params) continue;
    if (route.method === method) return { kind: "found", route, params };
    allow.push(route.method);
  }
  return allow.length ? { kind: "method_not_allowed", allow } : { kind: "not_found" };
}

function matchSegments(pattern: readonly string[], path: readonly string[]): Record<string, string> | null {
  if (pattern.length !== path.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of pattern.entries()) {
    const actual = path[i] ?? "";
    if (part.startsWith("{") && part.endsWith("}")) params[part.slice(1, -1)] = actual;
    else if (part !== actual) return null;
  }
  return params;
}

/** The verbs the registry offers at a path (for OPTIONS and 405's Allow); empty when no route matches. */
export function methodsAt(path: readonly string[]): HttpMethod[] {
  return [...new Set(routes.filter((route) => matchSegments(route.segments, path)).map((route) => route.method))];
}
