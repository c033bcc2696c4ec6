import type { z } from "zod";
import type { Scope, ScopeFamily } from "./scopes.ts";

export type Verb = "list" | "get" | "create" | "update" | "delete";
export const VERBS: readonly Verb[] = ["list", "get", "create", "update", "delete"];

export interface FieldSpec {
  /** The value's type, as sent and as returned (without null; see nullable). */
  schema: z.ZodType;
  description: string;
  /** Set by the service; a request that sends it is refused with 422. */
  readOnly?: boolean;
  /** Must be sent on create. */
  required?: boolean;
  /** May be null in records and in requests that clear it. */
  nullable?: boolean;
  /** The value the store gives when create leaves it out (documented, not applied by code). */
  default?: unknown;
  example?: unknown;
  /** Holds the key of a completed upload of this purpose (checked by the store). */
  uploadPurpose?: UploadPurpose;
  /** A secret answered once (on create): never stored with an idempotent replay, which answers null. */
  shownOnce?: boolean;
  /**
   * The row this field points at: another resource's record (by its registry name), a member, or a
   * catalog entry. Fixtures and the isolation tests make the row it needs from this, so a new
   * resource's foreign keys need no test edit.
   */
  references?: { resource: string } | "member" | "catalog-entry";
  /** No two rows may share the value (a handle): fixtures make a fresh one instead of the example. */
  unique?: boolean;
}

/**
 * Rows of another table exported inside each of this resource's records (a streak's check-ins):
 * `key` in the record holds, in `orderBy` order (columns of the child table), the child rows whose
 * `foreignKey` is the record's id. The child table names the member in the same column as the
 * resource, which the export reads by and leaves out.
 */
export interface ExportChildren {
  key: string;
  table: string;
  foreignKey: string;
  orderBy: string;
}

/**
 * Where a resource's events come from (see registry/events.ts and scripts/build-event-triggers.ts,
 * which generates the store triggers from it).
 */
export interface EventSource {
  /** The table whose committed rows fire `<singular>.created|updated|deleted` (default: the resource's table). */
  table?: string;
  /** Columns naming the members who receive the events (default: the owner column of the list, else owner_id). */
  audience?: readonly string[];
  /** Events fired by inserts into another table (streak.checked_in): event kind → its table and audience. */
  inserts?: Readonly<Record<string, { table: string; audience: readonly string[]; description: string }>>;
  /**
   * Events of rows the member never writes through this resource (connected apps: OAuth grants), so no
   * activity or undo: event kind → what fires it and the columns its data carries.
   */
  related?: Readonly<Record<string, RelatedEvent>>;
}

export interface RelatedEvent {
  table: string;
  on: "insert" | "update";
  /** An SQL condition on old and new narrowing which updates fire it (default: any change). */
  when?: string;
  audience: readonly string[];
  description: string;
  /** The data: these keys of the committed row, nothing else. */
  data: z.ZodObject;
  /** The page where the member sees the record: the url sent instead of a payload over 256 KB. */
  page: string;
}

/** What an upload is for; each purpose takes the write scope of the resource that uses it. */
export type UploadPurpose = "avatar" | "attachment" | "artwork";

/** A scope picked by the value of one input field (uploads: by purpose). */
export interface ScopeBy {
  field: string;
  map: Readonly<Record<string, Scope>>;
}

/**
 * Which rows a list shows before filters. Row-level security decides what a member may read at
 * all; this decides what a list means, so an unlisted row is readable by id yet never listed.
 */
export type ListRows =
  /** The caller's own rows: `column` holds the caller's id. */
  | { rows: "own"; column: string }
  /** Rows where either column holds the caller's id (both sides of a message). */
  | { rows: "either"; columns: readonly [string, string] }
  /** Every row the caller may read. */
  | { rows: "all" };

/** How a list filter reaches SQL; lib/domain/list-scopes.ts generates the clause from it. */
export type FilterSql =
  /** Narrows: `column` equals the value. */
  | { kind: "equals"; column: string }
  /**
   * Replaces the default rows with those whose `column` equals the value (items of one
   * collection, collections of one owner); `othersOnly` narrows further when the value is not
   * the caller (someone else's collections: only public ones).
   */
  | { kind: "instead"; column: string; othersOnly?: { column: string; equals: string } }
  /** For "either" lists: only rows between the caller and the member the value names. */
  | { kind: "counterpart" }
  /** For "own" lists: the value picks which column holds the caller (following or followers). */
  | { kind: "side"; columns: Readonly<Record<string, string>> };

export interface FilterSpec {
  schema: z.ZodType;
  description: string;
  sql: FilterSql;
}

export interface ResourceSpec {
  /** URL segment and registry key, e.g. "collection-types". */
  name: string;
  /** Prefix of the tool names: "collection_types" gives collection_types_list. */
  toolPrefix: string;
  singular: string;
  description: string;
  /** Postgres table the generic verbs read and write. */
  table: string;
  scope: ScopeFamily;
  verbs: readonly Verb[];
  /** Addressed without an id: the member's own record or settings (profile, collection-types). */
  singleton?: boolean;
  fields: Record<string, FieldSpec>;
  /** Required when the resource offers list (and is not a singleton). */
  list?: ListRows;
  filters?: Record<string, FilterSpec>;
  /** Event kinds this resource fires (webhooks): `<singular>.created|updated|deleted`, or one of eventSource.inserts. */
  events?: readonly string[];
  eventSource?: EventSource;
  /** Rules worth stating in the reference, one sentence each. */
  rules?: readonly string[];
  /** Replaces the derived update input where the body is not a partial record (collection-types). */
  updateInput?: z.ZodObject;
  /** Per-verb notes for the reference where the verb does more than the generic one. */
  verbNotes?: Partial<Record<Verb, string>>;
  /**
   * Update answers the whole list (a page), not one record: a singleton whose update switches
   * several rows at once (collection-types).
   */
  updateAnswersList?: boolean;
  /**
   * A credential may be limited to rows of this resource the member chose (the collections
   * limit, read by RLS): such a credential cannot create one, since the new row would fall
   * outside its list, and is refused up front with collection_limited.
   */
  credentialChoosesRows?: boolean;
  /** Child rows the export nests in each record (see ExportChildren). */
  exportChildren?: ExportChildren;
  /**
   * The activity ledger keeps no previous image of its rows, so undo cannot bring one back:
   * private bodies (messages) or a secret that must not return (webhook endpoints).
   */
  activityWithoutImage?: boolean;
  /**
   * SQL over the row `t` naming it for the member on the delete-confirmation page, where its own
   * name or title field does not (label: an item's catalog title) or more is at stake (context:
   * "with its 12 items").
   */
  confirmDeleteSql?: { label?: string; context?: string };
}

/** A capability that is not one of the five verbs (check-in, resolve, search, uploads). */
export interface OperationSpec {
  /** Tool name, e.g. "streaks_check_in". */
  name: string;
  summary: string;
  description: string;
  method: "GET" | "POST";
  /** Path under /api/v1 with {param} placeholders. */
  path: string;
  /** The scope shown where one is expected; with scopeBy, one of the map's scopes. */
  scope: Scope;
  /** When the input decides the scope: checked after parsing; any of the map's scopes lists the tool. */
  scopeBy?: ScopeBy;
  /**
   * Any one of these scopes lets the operation run, and what it answers depends on which the
   * token holds (the export: each section needs its own read scope, and the answer lists what was
   * left out). The pipeline checks for one of them, so REST, invoke and MCP agree; the handler
   * reads the token's scopes for the rest. `scope` is then the one shown where one is expected.
   */
  answersByScope?: readonly Scope[];
  /**
   * REST answers this media type instead of JSON, rendered from the JSON output (the export's ZIP);
   * invoke and MCP keep the JSON output.
   */
  restBody?: { contentType: "application/zip"; description: string };
  /** The tool input; for REST, path params, query (GET) and body (POST) together. */
  input: z.ZodObject;
  output: z.ZodType;
  /** Which input keys come from the path. */
  pathParams?: readonly string[];
  /** Creates something: accepts Idempotency-Key, answers 201 (or 200 when nothing new was made). */
  creates?: boolean;
  /** Its own rate-limit bucket on top of the general one. */
  rateLimit?: "resolver";
  /** REST query names that stand for an input field, e.g. { q: "query" } (GET /search?q= → tool argument query). */
  queryAliases?: Readonly<Record<string, string>>;
  rules?: readonly string[];
  errors?: readonly { status: number; code: string; when: string }[];
}

/** A tool the browser carries out; the server only validates the input and returns the directive. */
export interface DirectiveSpec {
  name: string;
  description: string;
  input: z.ZodObject;
  directive: z.ZodObject;
  /** Scope needed to receive the directive (it may read the catalog). */
  scope: Scope;
}

// The `const` type parameters keep each declaration's literal types (tool prefix, verbs, field
// schemas), from which registry/tool-inputs.ts derives every tool name and its input type.
export const defineResource = <const R extends ResourceSpec>(spec: R): R => spec;
export const defineOperation = <const O extends OperationSpec>(spec: O): O => spec;
export const defineDirective = <const D extends DirectiveSpec>(spec: D): D => spec;
export const defineField = <const F extends FieldSpec>(spec: F): F => spec;
