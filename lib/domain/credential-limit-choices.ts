import { capabilities } from "../../registry/capabilities.ts";
import type { CredentialLimits } from "../auth/credential-limits.ts";
import { asService } from "../db/index.ts";

/** What a member may pick as a credential's limits: their own collections, and the registry's tools. */
export interface LimitChoices {
  collections: readonly { id: string; name: string; type: string }[];
  tools: readonly { name: string; summary: string; writes: boolean }[];
}

const TOOLS = capabilities.map((capability) => ({
  name: capability.tool as string,
  summary: capability.summary,
  writes: !capability.annotations.readOnlyHint,
}));

/** The member's own collections (never another member's, even a public one) and every tool. */
export async function limitChoices(memberId: string): Promise<LimitChoices> {
  const collections = await asService((tx) =>
    tx.query<{ id: string; name: string; type: string }>(
      "select id, name, type from public.collections where owner_id = $1 order by lower(name), id",
      [memberId],
    ),
  );
  return { collections, tools: TOOLS };
}

export type LimitsCheck =
  | { ok: true; limits: CredentialLimits }
  | { ok: false; field: keyof CredentialLimits; error: string };

/**
 * The one check of chosen limits, for every place that sets them (the token form, the CLI, the
 * OAuth consent page): a collection must be one of the member's own, a tool one the registry has.
 */
export function checkLimits(limits: CredentialLimits, choices: LimitChoices): LimitsCheck {
  const ownIds = new Set(choices.collections.map((c) => c.id));
  const unknownCollections = (limits.collections ?? []).filter((id) => !ownIds.has(id));
  if (unknownCollections.length) {
    return {
      ok: false,
      field: "collections",
      error: `Unknown collection: ${unknownCollections.join(", ")} (pick among your own collections).`,
    };
  }
  const toolNames = new Set(choices.tools.map((t) => t.name));
  const unknownTools = (limits.tools ?? []).filter((name) => !toolNames.has(name));
  if (unknownTools.length) return { ok: false, field: "tools", error: `Unknown tool: ${unknownTools.join(", ")}.` };
  return { ok: true, limits };
}
