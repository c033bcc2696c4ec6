// Every registry verb (issue 34's first target) on each surface: REST, tool invoke and MCP tools/call,
// one row each, the REST request derived from the capability's own HTTP binding.
import { asService } from "../lib/db/index.ts";
import { capability } from "./ceiling.ts";
import type { Scenario } from "./load.ts";
import type { BenchMember, Seeded } from "./seed.ts";

export const SURFACES = ["REST", "invoke", "MCP"] as const;
export type Surface = (typeof SURFACES)[number];
/** The verbs target 1 names, each measured on every surface. */
export const VERB_NAMES = ["get", "list", "create", "update", "delete", "check-in", "search"] as const;

/** A verb row's label begins so; the tool follows in brackets. */
export const verbLabelPrefix = (verb: (typeof VERB_NAMES)[number], surface: Surface) => `${verb} ${surface} (`;

/** What the verb rows need beyond the seed: a streak per member and items to delete. */
export interface VerbSeed {
  streakIds: string[];
  /** Items made to be deleted, interleaved over members: entry i is members[i % n]'s. */
  deletable: string[];
}

/** One verb: its tool, the input of request i, and the REST status it answers. */
interface Verb {
  name: (typeof VERB_NAMES)[number];
  tool: string;
  input: (i: number) => Record<string, unknown>;
  rest: number | readonly number[];
  /** A delete: each request consumes a row (load.ts pools). */
  consumes?: number;
}

const at = <T>(list: readonly T[], i: number): T => {
  const value = list[i % list.length];
  if (value === undefined) throw new Error("empty list");
  return value;
};

/** Days a check-in may name (today and up to six back, within CHECK_IN_MAX_DAYS_BACK even across midnight UTC). */
const checkInDays = Array.from({ length: 7 }, (_, back) =>
  new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10),
);

function verbs(seeded: Seeded, extra: VerbSeed): Verb[] {
  const { members, catalogIds, searchTerm } = seeded;
  const member = (i: number) => at(members, i);
  return [
    { name: "get", tool: "items_get", input: (i) => ({ id: at(member(i).itemIds, i) }), rest: 200 },
    { name: "list", tool: "items_list", input: () => ({}), rest: 200 },
    {
      name: "create",
      tool: "items_create",
      input: (i) => ({ collection_id: at(member(i).collectionIds, i), song_id: at(catalogIds, i) }),
      rest: 201,
    },
    {
      name: "update",
      tool: "items_update",
      input: (i) => ({ id: at(member(i).itemIds, i), note: `Heard again, take ${i}` }),
      rest: 200,
    },
    {
      name: "delete",
      tool: "items_delete",
      input: (i) => ({ id: at(extra.deletable, i) }),
      rest: 204,
      consumes: extra.deletable.length,
    },
    {
      name: "check-in",
      tool: "streaks_check_in",
      // The first check-in of a day records it (201), later ones answer the recorded one (200).
      input: (i) => ({ id: at(extra.streakIds, i), date: at(checkInDays, Math.floor(i / members.length)) }),
      rest: [200, 201],
    },
    { name: "search", tool: "search", input: () => ({ query: searchTerm }), rest: 200 },
  ];
}

/** The REST request of a tool call: path parameters into the path, the rest into the query (GET) or the body. */
function restRequest(tool: string, input: Record<string, unknown>) {
  const http = capability(tool)?.http;
  if (!http) throw new Error(`${tool} has no REST binding`);
  const rest = { ...input };
  const path = http.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = String(rest[name]);
    delete rest[name];
    return encodeURIComponent(value);
  });
  if (http.method === "GET" || http.method === "DELETE") {
    const query = new URLSearchParams(Object.entries(rest).map(([k, v]) => [k, String(v)])).toString();
    return { method: http.method, path: `/api/v1${path}${query ? `?${query}` : ""}` };
  }
  return { method: http.method as Scenario["method"], path: `/api/v1${path}`, body: rest };
}

const MCP_HEADERS = { accept: "application/json, text/event-stream" };

function scenarioFor(verb: Verb, surface: Surface, token: (i: number) => string): Scenario {
  const label = `${verbLabelPrefix(verb.name, surface)}${verb.tool})`;
  const pool = verb.consumes ? { next: 0, size: verb.consumes } : undefined;
  const common = { label, token, ...(pool ? { pool } : {}) };
  if (surface === "REST") {
    const first = restRequest(verb.tool, verb.input(0));
    return {
      ...common,
      method: first.method as Scenario["method"],
      path: (i) => restRequest(verb.tool, verb.input(i)).path,
      ...("body" in first
        ? { body: (i: number) => (restRequest(verb.tool, verb.input(i)) as { body: unknown }).body }
        : {}),
      expect: verb.rest,
    };
  }
  if (surface === "invoke") {
    const ok = (typeof verb.rest === "number" ? [verb.rest] : verb.rest).map((s) => (s === 204 ? 200 : s));
    return {
      ...common,
      method: "POST",
      path: () => "/api/agent/invoke",
      body: (i) => ({ tool: verb.tool, input: verb.input(i) }),
      expect: ok,
    };
  }
  return {
    ...common,
    method: "POST",
    path: () => "/api/mcp",
    headers: MCP_HEADERS,
    body: (i) => ({
      jsonrpc: "2.0",
      id: i,
      method: "tools/call",
      params: { name: verb.tool, arguments: verb.input(i) },
    }),
    expect: 200,
    refused: (body) => body.includes('"isError":true') || body.includes('"error":{'),
  };
}

/**
 * The verb rows, filtered by `only` (substrings of a row's label, any of them: "search", "MCP",
 * "create REST"); a delete row's member token follows its pool entry's owner.
 */
export function verbScenarios(seeded: Seeded, extra: VerbSeed, only: readonly string[]): Scenario[] {
  const token = (members: readonly BenchMember[]) => (i: number) => at(at(members, i).tokens, 0);
  const rows: Scenario[] = [];
  for (const verb of verbs(seeded, extra)) {
    if (!capability(verb.tool)) continue;
    for (const surface of SURFACES) {
      // Each surface's delete takes its own third of the pool.
      const share = verb.consumes ? Math.floor(verb.consumes / SURFACES.length) : 0;
      const offset = share * SURFACES.indexOf(surface);
      const shifted: Verb = verb.consumes ? { ...verb, input: (i) => verb.input(offset + i), consumes: share } : verb;
      const memberToken = verb.consumes ? (i: number) => token(seeded.members)(offset + i) : token(seeded.members);
      const scenario = scenarioFor(shifted, surface, memberToken);
      if (matches(scenario.label, only)) rows.push(scenario);
    }
  }
  return rows;
}

/** A label matches when no filter is given or it contains every word of one of the filters. */
export function matches(label: string, only: readonly string[]): boolean {
  if (only.length === 0) return true;
  const lower = label.toLowerCase();
  return only.some((filter) =>
    filter
      .toLowerCase()
      .split(/\s+/)
      .every((word) => lower.includes(word)),
  );
}

/** A streak per member and `perMember` items per member to delete, in its first collection (as the service). */
export async function seedVerbRows(seeded: Seeded, perMember: number): Promise<VerbSeed> {
  const ids = seeded.members.map((m) => m.id);
  return asService(async (tx) => {
    const streaks = await tx.query<{ id: string; owner_id: string }>(
      `insert into public.streaks (owner_id, name) select o, 'Bench streak' from unnest($1::uuid[]) o returning id, owner_id`,
      [ids],
    );
    const byOwner = new Map(streaks.map((s) => [s.owner_id, s.id]));
    const rows = await tx.query<{ id: string; owner_id: string }>(
      `insert into public.items (owner_id, collection_id, song_id, note)
       select m.o, m.c, ($3::uuid[])[1 + ((m.n * $2::int + g) % cardinality($3::uuid[]))], 'To delete'
       from unnest($1::uuid[], $4::uuid[]) with ordinality m(o, c, n), generate_series(1, $2::int) g
       returning id, owner_id`,
      [ids, perMember, seeded.catalogIds, seeded.members.map((m) => m.collectionIds.at(-1))],
    );
    const owned = new Map<string, string[]>(ids.map((id) => [id, []]));
    for (const row of rows) owned.get(row.owner_id)?.push(row.id);
    // Interleaved so that entry i belongs to members[i % n], as every other row's request i does.
    const deletable: string[] = [];
    for (let k = 0; k < perMember; k++) for (const id of ids) deletable.push(owned.get(id)?.[k] ?? "");
    return { streakIds: ids.map((id) => byOwner.get(id) ?? ""), deletable };
  });
}
