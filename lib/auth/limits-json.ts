import type { CredentialLimits } from "./credential-limits.ts";

/**
 * The stored form of CredentialLimits (a jsonb column), in the one shape every credential kind
 * keeps: only the limits that are set, lists deduplicated; no limit at all is null, so the common
 * unlimited credential carries nothing and the member transaction adds nothing to its claims.
 */
export function limitsToStore(limits: CredentialLimits | null | undefined): CredentialLimits | null {
  if (!limits) return null;
  const out: { -readonly [K in keyof CredentialLimits]: CredentialLimits[K] } = {};
  if (limits.collections?.length) out.collections = [...new Set(limits.collections)];
  if (limits.readOnly) out.readOnly = true;
  if (limits.confirmDestructive) out.confirmDestructive = true;
  if (limits.tools?.length) out.tools = [...new Set(limits.tools)];
  return Object.keys(out).length ? Object.freeze(out) : null;
}

const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : undefined;

/**
 * Reads a stored value back. Fails closed: a list that is present stays a limit even if nothing in
 * it survives (an empty collections list reaches no collection, an empty tools list calls no tool).
 */
export function limitsFromStore(value: unknown): CredentialLimits | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const raw = value as Record<string, unknown>;
  const out: { -readonly [K in keyof CredentialLimits]: CredentialLimits[K] } = {};
  const collections = strings(raw.collections);
  const tools = strings(raw.tools);
  if (collections) out.collections = collections;
  if (raw.readOnly === true) out.readOnly = true;
  if (raw.confirmDestructive === true) out.confirmDestructive = true;
  if (tools) out.tools = tools;
  return Object.keys(out).length ? Object.freeze(out) : null;
}
