import { acceptedScopes, allowedBy, type Capability, capabilities } from "../../registry/capabilities.ts";
import { CONFIRM_DELETE_NOTE, confirmDeleteDirective } from "../../registry/confirm-delete.ts";
import type { Scope } from "../../registry/scopes.ts";
import type { CredentialLimits } from "../auth/credential-limits.ts";
import { confirmsDelete, limitRefusal } from "../pipeline/credential-limits.ts";
import { capabilitySchemas, type JsonSchema, toJsonSchema } from "./tools-json-schema.ts";
import { toOpenAiStrict } from "./tools-openai.ts";

/** The dialects GET /api/agent/tools speaks: our own, OpenAI (Responses and Chat Completions), Anthropic, MCP. */
export const TOOL_FORMATS = ["pds", "openai", "openai-chat", "anthropic", "mcp"] as const;
export type ToolFormat = (typeof TOOL_FORMATS)[number];

export const isToolFormat = (value: string): value is ToolFormat => (TOOL_FORMATS as readonly string[]).includes(value);

export interface ToolAnnotationsOut {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** Our own definition: everything the registry knows about a tool, in one place. */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  /** "directive": the answer is {ok:true, directive} for the browser to carry out. */
  kind: "server" | "directive";
  scope: string;
  /** Every scope that allows the tool (more than one when the input picks the scope, as uploads do). */
  scopes: readonly string[];
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: ToolAnnotationsOut;
}

/** What a model reads to pick a tool: the verb's description, then what the resource is. */
function toolDescription(capability: Capability): string {
  if (capability.source.kind !== "resource") return capability.description;
  return `${capability.description} ${capability.source.resource.description}`;
}

let confirmDeleteSchema: JsonSchema | undefined;

/**
 * The tool as a credential with these limits sees it: a delete held for the member's confirmation
 * is described as what it then answers (the confirm_delete directive).
 */
export function toolDefinition(capability: Capability, limits?: CredentialLimits): ToolDefinition {
  const { input, output } = capabilitySchemas(capability);
  const held = confirmsDelete(capability, limits);
  if (held) confirmDeleteSchema ??= toJsonSchema(confirmDeleteDirective, "output");
  return {
    name: capability.tool,
    title: capability.summary,
    description: held ? `${toolDescription(capability)} ${CONFIRM_DELETE_NOTE}` : toolDescription(capability),
    kind: capability.source.kind === "directive" || held ? "directive" : "server",
    scope: capability.scope,
    scopes: acceptedScopes(capability),
    inputSchema: input,
    outputSchema: held && confirmDeleteSchema ? confirmDeleteSchema : output,
    annotations: {
      title: capability.summary,
      ...capability.annotations,
      // Only the resolver reaches services outside this one (upstream catalogs).
      openWorldHint: capability.rateLimit === "resolver",
    },
  };
}

/**
 * The capabilities a set of scopes, and the credential's limits, let it call, in registry order
 * (stable, so prompt caches hold): a tool its limits refuse (read-only, allowlist) is not listed.
 */
export function toolsFor(scopes: Iterable<Scope>, limits?: CredentialLimits): Capability[] {
  const granted = new Set<string>(scopes);
  // Any accepted scope lists a tool whose input picks its scope (uploads); invoke checks the exact one.
  return capabilities.filter((capability) => allowedBy(capability, granted) && !limitRefusal(capability, limits));
}

/**
 * MCP requires an object at the root of outputSchema and structuredContent; a tool whose answer is
 * not an object (a delete answers null) is described, and answered, as {result: <answer>}.
 * With limits: a delete held for confirmation answers the directive, an object.
 */
export function mcpOutputSchema(
  capability: Capability,
  limits?: CredentialLimits,
): { schema: JsonSchema; wrapped: boolean } {
  const { outputSchema: output } = toolDefinition(capability, limits);
  if (output.type === "object") return { schema: output, wrapped: false };
  return {
    schema: { type: "object", properties: { result: output }, required: ["result"], additionalProperties: false },
    wrapped: true,
  };
}

export function toVendorShape(
  definition: ToolDefinition,
  capability: Capability,
  format: ToolFormat,
  limits?: CredentialLimits,
): unknown {
  switch (format) {
    case "pds":
      return definition;
    case "openai":
      // Responses API: a flat function tool.
      return {
        type: "function",
        name: definition.name,
        description: definition.description,
        parameters: toOpenAiStrict(definition.inputSchema),
        strict: true,
      };
    case "openai-chat":
      // Chat Completions: the same function, nested under "function".
      return {
        type: "function",
        function: {
          name: definition.name,
          description: definition.description,
          parameters: toOpenAiStrict(definition.inputSchema),
          strict: true,
        },
      };
    case "anthropic":
      return { name: definition.name, description: definition.description, input_schema: definition.inputSchema };
    case "mcp":
      return {
        name: definition.name,
        title: definition.title,
        description: definition.description,
        inputSchema: definition.inputSchema,
        outputSchema: mcpOutputSchema(capability, limits).schema,
        annotations: definition.annotations,
      };
  }
}

/** The catalog a token (or session) with these scopes and limits sees, in the requested dialect. */
export function toolCatalog(scopes: Iterable<Scope>, format: ToolFormat = "pds", limits?: CredentialLimits): unknown[] {
  return toolsFor(scopes, limits).map((capability) =>
    toVendorShape(toolDefinition(capability, limits), capability, format, limits),
  );
}
