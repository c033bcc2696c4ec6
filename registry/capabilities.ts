import { z } from "zod";
import type { DirectiveSpec, OperationSpec, ResourceSpec, ScopeBy, Verb } from "./define.ts";
import { directives, operations, resources } from "./index.ts";
import { article, createSchema, recordSchema, updateSchema } from "./resource-schemas.ts";
import type { Scope } from "./scopes.ts";
import type { ToolName } from "./tool-inputs.ts";

export { createSchema, recordSchema, updateSchema };

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
}

/** One callable capability: a REST operation and a tool at once. Everything here is derived. */
export interface Capability {
  tool: ToolName;
  summary: string;
  description: string;
  /** Absent for browser directives, which have no REST route. */
  http?: { method: HttpMethod; path: string; pathParams: readonly string[] };
  scope: Scope;
  /** Set when the input picks the scope (uploads); see acceptedScopes and scopeForInput. */
  scopeBy?: ScopeBy;
  /** Any one of these lets it run; the answer depends on which are held (see OperationSpec.answersByScope). */
  answersByScope?: readonly Scope[];
  input: z.ZodObject;
  output: z.ZodType;
  /** Fields a request may not send; refused with a message naming them. */
  readOnlyFields: readonly string[];
  creates: boolean;
  successStatus: number;
  annotations: ToolAnnotations;
  rateLimit?: "resolver";
  source:
    | { kind: "resource"; resource: ResourceSpec; verb: Verb }
    | { kind: "operation"; operation: OperationSpec }
    | { kind: "directive"; directive: DirectiveSpec };
}

export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, pageOf, pageQuery } from "./pagination.ts";
import { isPage, pageOf, pageQuery } from "./pagination.ts";

const idInput = (resource: ResourceSpec) => ({
  id: z.uuid().describe(`Identifier of the ${resource.singular}.`),
});

function resourceCapability(resource: ResourceSpec, verb: Verb): Capability {
  const record = recordSchema(resource);
  const base = `/${resource.name}`;
  const byId = resource.singleton ? base : `${base}/{id}`;
  const pathParams = resource.singleton ? [] : ["id"];
  const readOnlyFields = Object.entries(resource.fields)
    .filter(([, field]) => field.readOnly)
    .map(([name]) => name);
  const filters = Object.fromEntries(
    Object.entries(resource.filters ?? {}).map(([name, filter]) => [
      name,
      filter.schema.optional().describe(filter.description),
    ]),
  );
  const scope = `${resource.scope}:${verb === "list" || verb === "get" ? "read" : "write"}` as Scope;
  const note = resource.verbNotes?.[verb];
  const common = { scope, readOnlyFields, source: { kind: "resource" as const, resource, verb } };
  const plural = resource.name.replace(/-/g, " ");
  switch (verb) {
    case "list":
      return {
        ...common,
        tool: `${resource.toolPrefix}_list` as ToolName,
        summary: `List ${plural}`,
        description: note ?? `List ${plural}, newest first, one page at a time.`,
        http: { method: "GET", path: base, pathParams: [] },
        // Every list takes the page parameters, also one that is always short (collection types).
        input: z.strictObject({ ...pageQuery, ...filters }),
        output: pageOf(record),
        creates: false,
        successStatus: 200,
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
      };
    case "get":
      return {
        ...common,
        tool: `${resource.toolPrefix}_get` as ToolName,
        summary: resource.singleton ? `Get the member's ${resource.singular}` : `Get ${article(resource.singular)}`,
        description:
          note ??
          (resource.singleton
            ? `Get the member's own ${resource.singular}; it is addressed without an id because it is always the caller's.`
            : `Get one ${resource.singular} by its id. One the token's member cannot see answers 404.`),
        http: { method: "GET", path: byId, pathParams },
        input: z.strictObject(resource.singleton ? {} : idInput(resource)),
        output: record,
        creates: false,
        successStatus: 200,
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
      };
    case "create":
      return {
        ...common,
        tool: `${resource.toolPrefix}_create` as ToolName,
        summary: `Create ${article(resource.singular)}`,
        description: note ?? `Create ${article(resource.singular)}. Accepts Idempotency-Key.`,
        http: { method: "POST", path: base, pathParams: [] },
        input: createSchema(resource),
        output: record,
        creates: true,
        successStatus: 201,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
      };
    case "update": {
      const fields = resource.updateInput ?? updateSchema(resource);
      return {
        ...common,
        tool: `${resource.toolPrefix}_update` as ToolName,
        summary: resource.singleton ? `Update the member's ${plural}` : `Update ${article(resource.singular)}`,
        description: note ?? `Change some fields of ${article(resource.singular)}; fields left out keep their value.`,
        http: { method: "PATCH", path: byId, pathParams },
        input: resource.singleton ? fields : fields.extend(idInput(resource)),
        output: resource.updateAnswersList ? pageOf(record) : record,
        creates: false,
        successStatus: 200,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
      };
    }
    case "delete":
      return {
        ...common,
        tool: `${resource.toolPrefix}_delete` as ToolName,
        summary: `Delete ${article(resource.singular)}`,
        description: note ?? `Delete ${article(resource.singular)}. Answers 204 with no body.`,
        http: { method: "DELETE", path: byId, pathParams },
        input: z.strictObject(idInput(resource)),
        output: z.null(),
        creates: false,
        successStatus: 204,
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
      };
  }
}

function operationCapability(operation: OperationSpec): Capability {
  const reads = operation.method === "GET";
  return {
    tool: operation.name as ToolName,
    summary: operation.summary,
    description: operation.description,
    http: { method: operation.method, path: operation.path, pathParams: operation.pathParams ?? [] },
    scope: operation.scope,
    scopeBy: operation.scopeBy,
    answersByScope: operation.answersByScope,
    input: operation.input,
    output: operation.output,
    readOnlyFields: [],
    creates: operation.creates ?? false,
    successStatus: operation.creates ? 201 : 200,
    annotations: { readOnlyHint: reads, destructiveHint: false, idempotentHint: reads },
    rateLimit: operation.rateLimit,
    source: { kind: "operation", operation },
  };
}

function directiveCapability(directive: DirectiveSpec): Capability {
  return {
    tool: directive.name as ToolName,
    summary: directive.description,
    description: `${directive.description} Runs in the browser: the answer is a directive for the client to carry out.`,
    scope: directive.scope,
    input: directive.input,
    output: directive.directive,
    readOnlyFields: [],
    creates: false,
    successStatus: 200,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    source: { kind: "directive", directive },
  };
}

/** Every capability, in a stable order: resources (spec order, verb order), operations, directives. */
export const capabilities: readonly Capability[] = [
  ...resources.flatMap((resource) =>
    (["list", "get", "create", "update", "delete"] as const)
      .filter((verb) => resource.verbs.includes(verb))
      .map((verb) => resourceCapability(resource, verb)),
  ),
  ...operations.map(operationCapability),
  ...directives.map(directiveCapability),
];

/**
 * Every scope that can allow the capability, any one of them enough: its scope, each scope its
 * input may pick, or each scope its answer depends on (answersByScope).
 */
export function acceptedScopes(capability: Capability): readonly Scope[] {
  if (capability.answersByScope) return capability.answersByScope;
  return capability.scopeBy ? [...new Set(Object.values(capability.scopeBy.map))] : [capability.scope];
}

/** Whether granted scopes allow the capability at all: one accepted scope. */
export function allowedBy(capability: Capability, granted: ReadonlySet<string>): boolean {
  return acceptedScopes(capability).some((scope) => granted.has(scope));
}

/** OpenAPI security requirements: alternatives, one scope each. */
export function securityRequirements(capability: Capability): ({ bearer: Scope[] } | { oauth: Scope[] })[] {
  return acceptedScopes(capability).flatMap((scope) => [{ bearer: [scope] }, { oauth: [scope] }]);
}

/** The scope a validated input needs (the input's field picks it when scopeBy is set). */
export function scopeForInput(capability: Capability, input: Record<string, unknown>): Scope {
  const by = capability.scopeBy;
  return (by ? by.map[String(input[by.field])] : undefined) ?? capability.scope;
}

/** The lists: reads that answer a page. Each takes after and limit (a test holds every one to it). */
export const listCapabilities: readonly Capability[] = capabilities.filter(
  (capability) => capability.annotations.readOnlyHint && isPage(capability.output),
);

export const capabilityByTool: ReadonlyMap<string, Capability> = new Map(capabilities.map((c) => [c.tool, c]));
