import fs from "node:fs";
import path from "node:path";
import { capability } from "./ceiling.ts";
import type { Scenario } from "./load.ts";
import type { BenchMember, Seeded } from "./seed.ts";

export const FLOOR_LABEL = "GET /collections, no token (401)";
export const LIST_LABEL = "GET /collections (50 rows)";
export const OAUTH_LIST_LABEL = "GET /collections (50 rows), OAuth token";

const at = <T>(list: readonly T[], i: number): T => {
  const value = list[i % list.length];
  if (value === undefined) throw new Error("empty list");
  return value;
};

const tokenOf = (members: readonly BenchMember[]) => (i: number) => at(at(members, i).tokens, i);
const oauthTokenOf = (members: readonly BenchMember[]) => (i: number) => at(at(members, i).oauthTokens, i);

/** The same catch-all route answering a fixed problem+json before any database work (no token). */
export const floorScenario: Scenario = {
  label: FLOOR_LABEL,
  method: "GET",
  path: () => "/api/v1/collections",
  expect: 401,
};

export const listScenario = (members: readonly BenchMember[], label = LIST_LABEL): Scenario => ({
  label,
  method: "GET",
  path: () => "/api/v1/collections",
  token: tokenOf(members),
  expect: 200,
});

/** A row as `next start` serves it: the generated route files through Next's router (the Vercel path). */
export const NEXT_START_SUFFIX = ", next start";
export const onNextStart = (scenario: Scenario): Scenario => ({
  ...scenario,
  label: `${scenario.label}${NEXT_START_SUFFIX}`,
});

/** The create row: an item in one of the member's collections. */
export const createScenario = ({ members, catalogIds }: Seeded): Scenario => ({
  label: CREATE_LABEL,
  method: "POST",
  path: () => "/api/v1/items",
  token: tokenOf(members),
  body: (i) => ({ collection_id: at(at(members, i).collectionIds, i), song_id: at(catalogIds, i) }),
  expect: 201,
});

/** The update row: a new note on one of the member's items, so every request changes the row (and fires item.updated). */
export const updateScenario = ({ members }: Seeded): Scenario => ({
  label: "PATCH /items/{id}",
  method: "PATCH",
  path: (i) => `/api/v1/items/${at(at(members, i).itemIds, i)}`,
  token: tokenOf(members),
  body: (i) => ({ note: `Heard again, take ${i}` }),
  expect: 200,
});

/** GET /search for the seeded common word, or null while the registry has no `search` capability. */
export function searchScenario({ members, searchTerm }: Seeded): Scenario | null {
  const search = capability("search");
  const route = search?.http?.path;
  if (!search || !route) return null;
  const param = "query" in search.input.shape ? "query" : "q";
  return {
    label: `GET ${route}?${param}=…`,
    method: "GET",
    path: () => `/api/v1${route}?${param}=${searchTerm}`,
    token: tokenOf(members),
    expect: 200,
  };
}

export const CREATE_LABEL = "POST /items";
export const UPDATE_LABEL = "PATCH /collections/{id}";

/**
 * An update that always changes the row: request i writes description "d<i>" to the collection
 * i picks, and requests that meet on one row carry different i (members × collections ≠ variants).
 */
export const collectionUpdateScenario = (members: readonly BenchMember[]): Scenario => ({
  label: UPDATE_LABEL,
  method: "PATCH",
  path: (i) => `/api/v1/collections/${at(at(members, i).collectionIds, i)}`,
  token: tokenOf(members),
  body: (i) => ({ description: `d${i}` }),
  expect: 200,
});

/** The API requests, each only when its capability is in the registry (others report why they were skipped). */
export function apiScenarios(seeded: Seeded): { scenarios: Scenario[]; skipped: string[] } {
  const { members } = seeded;
  const token = tokenOf(members);
  // The list with an OAuth access token beside a personal access token: the look-up should cost the same.
  const oauthList: Scenario = { ...listScenario(members, OAUTH_LIST_LABEL), token: oauthTokenOf(members) };
  const scenarios: Scenario[] = [listScenario(members), oauthList, floorScenario];
  const skipped: string[] = [];
  scenarios.push({
    label: "GET /collections/{id}",
    method: "GET",
    path: (i) => `/api/v1/collections/${at(at(members, i).collectionIds, i)}`,
    token,
    expect: 200,
  });
  scenarios.push(createScenario(seeded), updateScenario(seeded), collectionUpdateScenario(members));
  const search = searchScenario(seeded);
  if (search) scenarios.push(search);
  else skipped.push("GET /search: no `search` capability in the registry yet");
  const invokeRoute = path.join(process.cwd(), "app", "api", "agent", "invoke", "route.ts");
  if (capability("collections_list") && fs.existsSync(invokeRoute)) {
    scenarios.push({
      label: "POST /api/agent/invoke collections_list",
      method: "POST",
      path: () => "/api/agent/invoke",
      token,
      body: () => ({ tool: "collections_list", input: {} }),
      expect: 200,
    });
  } else skipped.push("POST /api/agent/invoke: no app/api/agent/invoke route yet");
  return { scenarios, skipped };
}
