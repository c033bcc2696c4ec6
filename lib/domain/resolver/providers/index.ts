import type { Domain, EntryDraft, ParsedRef } from "../types.ts";
import { enabledProviders, providerSettings } from "./config.ts";
import { ProviderError, type ProviderWarning, toWarning } from "./errors.ts";
import { itunes } from "./itunes.ts";
import { musicbrainz } from "./musicbrainz.ts";
import { nominatim } from "./nominatim.ts";
import { odesli } from "./odesli.ts";
import { openlibrary } from "./openlibrary.ts";
import { page } from "./page.ts";
import type { Provider } from "./provider.ts";
import { wikipedia } from "./wikipedia.ts";

/** Lookup order: cross-platform links first, then the richest metadata source per domain. */
const LOOKUP_CHAIN: readonly Provider[] = [odesli, itunes, openlibrary, wikipedia, nominatim, page];
/** Phrase order: the first enabled provider with answers wins (Nominatim only for an explicit places search). */
const SEARCH_CHAIN: readonly Provider[] = [itunes, musicbrainz, openlibrary, nominatim];

export interface ProviderOutcome {
  drafts: EntryDraft[];
  used: string[];
  warnings: ProviderWarning[];
}

export const networkEnabled = () => enabledProviders().size > 0;

/** Every enabled provider that knows the ref contributes a draft; the catalog merges them. */
export async function lookupWithProviders(ref: ParsedRef): Promise<ProviderOutcome> {
  const enabled = enabledProviders();
  const outcome: ProviderOutcome = { drafts: [], used: [], warnings: [] };
  for (const provider of LOOKUP_CHAIN) {
    if (!enabled.has(provider.id) || !provider.lookup) continue;
    try {
      const draft = await provider.lookup(ref, providerSettings(provider.id));
      if (draft) {
        outcome.drafts.push(draft);
        outcome.used.push(provider.id);
      }
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      outcome.warnings.push(toWarning(error));
    }
  }
  return outcome;
}

export async function searchWithProviders(phrase: string, domain: Domain | null): Promise<ProviderOutcome> {
  const enabled = enabledProviders();
  const outcome: ProviderOutcome = { drafts: [], used: [], warnings: [] };
  for (const provider of SEARCH_CHAIN) {
    if (!enabled.has(provider.id) || !provider.search) continue;
    try {
      const drafts = await provider.search(phrase, domain, providerSettings(provider.id));
      if (drafts.length) return { ...outcome, drafts: drafts.slice(0, 6), used: [provider.id] };
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      outcome.warnings.push(toWarning(error));
    }
  }
  return outcome;
}
