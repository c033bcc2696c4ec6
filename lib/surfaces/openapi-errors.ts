import { acceptedScopes, type Capability, capabilities } from "../../registry/capabilities.ts";
import type { ResourceSpec } from "../../registry/define.ts";
import { ownerColumn, ownerRole, readableByOthers } from "../../registry/ownership.ts";
import { PROBLEM_CODES, type ProblemCode } from "../http/problem.ts";
import { isDelete, isWrite, usesWebhooks } from "../pipeline/credential-limits.ts";

/**
 * Which problems an operation can answer, and when: derived from what the pipeline does for its
 * shape (token, scope, body, id in the path, write, create) plus the errors its registry entry
 * declares. Grouped by status, because a response in OpenAPI is per status.
 */
export interface ErrorCase {
  code: ProblemCode;
  when: string;
}

export function errorCases(capability: Capability): ErrorCase[] {
  const http = capability.http;
  if (!http) return [];
  const cases: ErrorCase[] = [
    { code: "unauthorized", when: "No token, or a malformed, unknown, expired or revoked one." },
    {
      code: "insufficient_scope",
      when: `The token lacks ${acceptedScopes(capability).join(" or ")}.`,
    },
  ];
  const hasBody = http.method === "POST" || http.method === "PATCH";
  if (hasBody) {
    cases.push(
      { code: "malformed_request", when: "The body is not valid JSON." },
      {
        code: "unsupported_media_type",
        when: "The body is not application/json, declares a charset other than UTF-8, or carries a Content-Encoding other than identity (gzip, br, …; Accept-Encoding: identity says so).",
      },
      { code: "payload_too_large", when: "The body is larger than 1 MiB." },
    );
  }
  if (http.pathParams.length) cases.push({ code: "not_found", when: "No such record, or not visible to this token." });
  if (http.method !== "GET") {
    cases.push(
      {
        code: "write_refused",
        when: `The store refused the write (reason carries its SQLSTATE and message).${notOwnerCase(capability)}`,
      },
      {
        code: "conflict",
        when: "A unique rule of the store was violated, or the row is still referenced (reason says which).",
      },
    );
  }
  if (capability.creates) {
    const malformed = cases.find((c) => c.code === "malformed_request");
    const badKey = "The Idempotency-Key header is empty, longer than 255 characters or not a valid string.";
    if (malformed) malformed.when = `${malformed.when} ${badKey}`;
    else cases.push({ code: "malformed_request", when: badKey });
    cases.push(
      { code: "idempotency_in_flight", when: "A request with the same Idempotency-Key is still running." },
      { code: "idempotency_mismatch", when: "The Idempotency-Key was used before with another payload." },
    );
  }
  cases.push(
    {
      code: "invalid_request",
      when:
        http.method === "GET"
          ? "A query parameter is unknown or invalid (limit above 200, bad cursor)."
          : "A field is unknown, read-only, missing or invalid.",
    },
    { code: "rate_limited", when: "The token's rate limit is used up; retry after Retry-After seconds." },
  );
  cases.push(...limitCases(capability));
  const declared = capability.source.kind === "operation" ? (capability.source.operation.errors ?? []) : [];
  for (const error of declared) {
    if (!(error.code in PROBLEM_CODES)) continue;
    const code = error.code as ProblemCode;
    const existing = cases.find((c) => c.code === code);
    if (existing) existing.when = `${existing.when} ${error.when}`;
    else cases.push({ code, when: error.when });
  }
  return cases;
}

/** The refusals of a credential's limits beyond its scopes (lib/pipeline/credential-limits.ts). */
function limitCases(capability: Capability): ErrorCase[] {
  const cases: ErrorCase[] = [
    {
      code: "tool_not_allowed",
      when: "The credential is limited to a list of tools the member chose, and this operation's tool is not on it (REST operations are the same capabilities as the tools).",
    },
  ];
  if (isWrite(capability)) {
    cases.push({
      code: "read_only_credential",
      when: "The credential is read-only (the member's choice): every write is refused.",
    });
  }
  const source = capability.source;
  if (source.kind === "resource" && source.verb === "create" && source.resource.credentialChoosesRows) {
    cases.push({
      code: "collection_limited",
      when: "The credential is limited to chosen collections: it cannot create a collection, which would fall outside its list.",
    });
  }
  if (usesWebhooks(capability)) {
    cases.push({
      code: "collection_limited",
      when: "The credential is limited to chosen collections: it cannot use webhook endpoints, which receive, and whose delivery logs list, the events of every collection.",
    });
  }
  if (isDelete(capability)) {
    cases.push({
      code: "confirmation_required",
      when: "The credential asks the member to confirm deletes: nothing was deleted; the detail names the settings page where the member confirms it (a tool call answers a confirm_delete directive instead).",
    });
  }
  return cases;
}

/** Update and delete of a row other members can read: readable is not writable (reason.code not_owner). */
function notOwnerCase(capability: Capability): string {
  const source = capability.source;
  if (source.kind !== "resource" || (source.verb !== "update" && source.verb !== "delete")) return "";
  if (!readableByOthers(source.resource)) return "";
  const action = source.verb === "update" ? "change" : "delete";
  return ` Also when the member can read the ${source.resource.singular} but it is another member's: only its ${ownerRole(source.resource)} may ${action} it (reason.code \`not_owner\`, SQLSTATE 42501); ${howOthersRowReads(source.resource)}, while a row the member cannot read at all is 404.`;
}

/** Where the member reads such a row: a GET of its id, else the list that shows it (follows have no GET by id). */
function howOthersRowReads(resource: ResourceSpec): string {
  if (resource.verbs.includes("get")) return "a GET of the same id answers 200";
  const list = capabilities.find(
    (c) => c.source.kind === "resource" && c.source.resource === resource && c.source.verb === "list",
  )?.http?.path;
  // A side filter names the other side by one of its values (follows: direction=followers).
  const owner = ownerColumn(resource);
  const filter = Object.entries(resource.filters ?? {}).find(([, f]) => f.sql.kind !== "equals");
  const sql = filter?.[1].sql;
  const other =
    sql?.kind === "side" ? Object.entries(sql.columns).find(([, column]) => column !== owner)?.[0] : undefined;
  const where = !filter ? "" : other ? `?${filter[0]}=${other}` : ` with its ${filter[0]} filter`;
  return `it is listed by GET ${list}${where} (${resource.name} have no GET by id)`;
}

export function byStatus(cases: readonly ErrorCase[]): Map<number, ErrorCase[]> {
  const grouped = new Map<number, ErrorCase[]>();
  for (const c of cases) {
    const status = PROBLEM_CODES[c.code].status;
    grouped.set(status, [...(grouped.get(status) ?? []), c]);
  }
  return new Map([...grouped.entries()].sort(([a], [b]) => a - b));
}

export function problemExample(code: ProblemCode, detail: string): Record<string, unknown> {
  const { status, title } = PROBLEM_CODES[code];
  return {
    type: `/docs/errors#${code}`,
    title,
    status,
    detail,
    code,
    request_id: "req_3f9a1c2b4d5e6f708192a3b4c5d6e7f8",
  };
}
