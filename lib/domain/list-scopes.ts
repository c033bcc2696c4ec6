/**
 * Which rows a list shows, per resource. Row-level security decides what a member may read at
 * all; this decides what a list means (your own collections, or someone's public ones), so an
 * unlisted row is readable by id yet never listed for others.
 */
export interface ListScope {
  where: string[];
  params: unknown[];
}

type ScopeBuilder = (me: string, filters: Record<string, unknown>, scope: ListScope) => void;

const param = (scope: ListScope, value: unknown) => {
  scope.params.push(value);
  return `$${scope.params.length}`;
};

const ownedBy = (column: string): ScopeBuilder => (me, _filters, scope) => {
  scope.where.push(`t.${column} = ${param(scope, me)}::uuid`);
};

export const LIST_SCOPES: Record<string, ScopeBuilder> = {
  collections: (me, { owner }, scope) => {
    if (typeof owner === "string" && owner !== me) {
      scope.where.push(`t.owner_id = ${param(scope, owner)}::uuid`, "t.visibility = 'public'");
    } else {
      scope.where.push(`t.owner_id = ${param(scope, me)}::uuid`);
    }
  },
  items: (me, { collection_id }, scope) => {
    if (typeof collection_id === "string") scope.where.push(`t.collection_id = ${param(scope, collection_id)}::uuid`);
    else scope.where.push(`t.owner_id = ${param(scope, me)}::uuid`);
  },
  todos: ownedBy("owner_id"),
  goals: ownedBy("owner_id"),
  streaks: ownedBy("owner_id"),
  messages: (me, filters, scope) => {
    const m = param(scope, me);
    if (typeof filters.with === "string") {
      const w = param(scope, filters.with);
      scope.where.push(
        `((t.sender_id = ${m}::uuid and t.recipient_id = ${w}::uuid) or (t.sender_id = ${w}::uuid and t.recipient_id = ${m}::uuid))`,
      );
    } else {
      scope.where.push(`(t.sender_id = ${m}::uuid or t.recipient_id = ${m}::uuid)`);
    }
  },
  follows: (me, { direction }, scope) => {
    const column = direction === "followers" ? "followee_id" : "follower_id";
    scope.where.push(`t.${column} = ${param(scope, me)}::uuid`);
  },
  channels: (_me, { owner }, scope) => {
    if (typeof owner === "string") scope.where.push(`t.owner_id = ${param(scope, owner)}::uuid`);
  },
};

/** Filters that are plain equality on a column of the same name. */
export const EQUALITY_FILTERS: Record<string, readonly string[]> = {
  collections: ["type"],
  todos: ["status"],
  goals: ["status"],
};

export function buildListScope(resource: string, me: string, filters: Record<string, unknown>): ListScope {
  const scope: ListScope = { where: [], params: [] };
  const builder = LIST_SCOPES[resource];
  if (!builder) throw new Error(`no list scope declared for ${resource}`);
  builder(me, filters, scope);
  for (const column of EQUALITY_FILTERS[resource] ?? []) {
    const value = filters[column];
    if (value !== undefined) scope.where.push(`t.${column} = ${param(scope, value)}`);
  }
  return scope;
}
