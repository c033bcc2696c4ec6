import type { z } from "zod";
import type { Domain, EntryDraft, ParsedRef } from "../types.ts";
import { type ProviderId, type ProviderSettings, providerSettings } from "./config.ts";
import { ProviderError } from "./errors.ts";

/**
 * One upstream source. `lookup` answers what a recognised URL or id names; `search` answers a
 * phrase. Both get their settings (base URL, timeout, retries, politeness, User-Agent) from
 * configuration, so tests run the same code against a fixture server on 127.0.0.1.
 */
export interface Provider {
  id: ProviderId;
  lookup?(ref: ParsedRef, settings: ProviderSettings): Promise<EntryDraft | null>;
  search?(phrase: string, domain: Domain | null, settings: ProviderSettings): Promise<EntryDraft[]>;
}

export const settingsFor = (provider: Provider) => providerSettings(provider.id);

/** Validates an upstream body; a body of the wrong shape is a "malformed" provider error. */
export function parseBody<T extends z.ZodType>(provider: ProviderId, schema: T, body: unknown): z.output<T> {
  const result = schema.safeParse(body);
  if (!result.success) throw new ProviderError(provider, "malformed", `${provider} answered in an unexpected shape.`);
  return result.data;
}

export const idOf = (ref: ParsedRef, namespace: string) => ref.ids.find((id) => id.namespace === namespace)?.value;
