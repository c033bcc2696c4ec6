import type { Domain, EntryDraft, ParsedRef } from "../types.ts";
import { deadlineSignal } from "./budget.ts";
import { enabledProviders, providerSettings, resolveDeadlineMs } from "./config.ts";
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

/** One resolve's total time for provider calls: the signal aborts every wait and request at once. */
export const resolveDeadline = (ms = resolveDeadlineMs()): AbortSignal => deadlineSignal(ms);

/**
 * Every enabled provider that knows the ref contributes a draft; the catalog merges them. They are
 * asked at once (each within its shared request budget, budget.ts), so one slow provider costs the others
 * nothing and the whole lookup ends by the deadline; drafts keep the chain's order.
 */
export async function lookupWithProviders(
  ref: ParsedRef,
  deadline: AbortSignal = resolveDeadline(),
): Promise<ProviderOutcome> {
  const enabled = enabledProviders();
  const chain = LOOKUP_CHAIN.filter((provider) => enabled.has(provider.id) && provider.lookup);
  const settled = await Promise.allSettled(
    chain.map((provider) => provider.lookup?.(ref, providerSettings(provider.id, deadline))),
  );
  const outcome: ProviderOutcome = { drafts: [], used: [], warnings: [] };
  settled.forEach((result, index) => {
    const provider = chain[index];
    if (!provider) return;
    if (result.status === "rejected") {
      if (!(result.reason instanceof ProviderError)) throw result.reason;
      outcome.warnings.push(toWarning(result.reason));
    } else if (result.value) {
      outcome.drafts.push(result.value);
      outcome.used.push(provider.id);
    }
  });
  return outcome;
}

export async function searchWithProviders(
  phrase: string,
  domain: Domain | null,
  deadline: AbortSignal = resolveDeadline(),
): Promise<ProviderOutcome> {
  const enabled = enabledProviders();
  const outcome: ProviderOutcome = { drafts: [], used: [], warnings: [] };
  for (const provider of SEARCH_CHAIN) {
    if (!enabled.has(provider.id) || !provider.search) continue;
    try {
      const drafts = await provider.search(phrase, domain, providerSettings(provider.id, deadline));
      if (drafts.length) return { ...outcome, drafts: drafts.slice(0, 6), used: [provider.id] };
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      outcome.warnings.push(toWarning(error));
    }
  }
  return outcome;
}
