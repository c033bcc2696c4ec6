import { asService, type Queryable } from "../db/index.ts";
import { DomainError } from "../errors/domain-error.ts";
import { type SearchHit, searchCatalog } from "./search-query.ts";
import { type CatalogEntryView, findByIds, readCurrent, readEntries, upsertDraft } from "./catalog-store.ts";
import { queueCompletion, worthCompleting } from "./completion.ts";
import { draftFromRef, inputLink } from "./draft-from-ref.ts";
import { fitDraft } from "./draft-guard.ts";
import { enrichThin, thinMusicRef } from "./enrich.ts";
import { attachDraft, matchByHints } from "./hint-match.ts";
import {
  lookupWithProviders,
  networkEnabled,
  type ProviderOutcome,
  resolveDeadline,
  searchWithProviders,
} from "./providers/index.ts";
import { enabledProviders } from "./providers/config.ts";
import { ProviderError } from "./providers/errors.ts";
import { expandShortLink } from "./providers/short-links.ts";
import { type Classified, classify, recogniseUrl } from "./recognise.ts";
import { storeLookup } from "./store-lookup.ts";
import type { Domain, ParsedRef } from "./types.ts";

interface Prepared {
  classified: Classified;
  /** Null when no upstream provider was asked (network off, or the catalog already knew). */
  providers: ProviderOutcome | null;
}

/** A phrase the catalog matches this well is answered without asking any provider. */
const CONFIDENT = 0.6;

/**
 * POST /resolve in two phases, both before the member transaction. First it classifies the input
 * offline and, only when providers are enabled and the catalog does not already hold a complete
 * entry, asks them (network I/O must never happen while a transaction is open). Then, in one
 * short transaction as the service — the catalog is written by the resolver alone, never with a
 * member's rights — it writes what was learned and reads the answer. Catalog entries are readable
 * by every member, so the answer is the one the member would read.
 */
export async function resolveInput({ input }: { input: { input: string } }): Promise<unknown> {
  const { classified, providers } = await learn(input.input);
  return asService((tx) =>
    classified.type === "phrase"
      ? resolvePhrase(tx, classified.phrase, classified.domain, providers)
      : resolveRef(tx, classified.type, classified.ref, providers),
  );
}

async function learn(text: string): Promise<Prepared> {
  const classified = classify(text);
  if (!networkEnabled()) return { classified, providers: null };
  // One deadline for everything this resolve asks upstream, short link included.
  const deadline = resolveDeadline();
  if (classified.type === "phrase") {
    const { phrase, domain } = classified;
    const [top, thin] = await asService(async (tx) => {
      const hit = (await searchCatalog(tx, { query: phrase, domain, limit: 1 })).hits[0];
      return [hit, hit ? await thinMusicRef(tx, hit.id) : null] as const;
    });
    if ((top?.similarity ?? 0) >= CONFIDENT) return { classified, providers: await enrichThin(thin, deadline) };
    const searched = await searchWithProviders(phrase, domain, deadline);
    if (searched.drafts.length || !thin) return { classified, providers: searched };
    // No provider knew the phrase better than the catalog's own (weaker) match: fill that one in.
    const enriched = await enrichThin(thin, deadline);
    return {
      classified,
      providers: enriched && { ...enriched, warnings: [...searched.warnings, ...enriched.warnings] },
    };
  }
  const expanded = await expand(classified, deadline);
  const [known, thin] = await asService(async (tx) => {
    const found = await findByIds(tx, expanded.ref.ids);
    return [found, found && !found.partial ? await thinMusicRef(tx, found.id) : null] as const;
  });
  if (known && !known.partial) return { classified: expanded, providers: await enrichThin(thin, deadline) };
  return { classified: expanded, providers: await lookupWithProviders(expanded.ref, deadline) };
}

/** A short link is followed (when the page provider is on) and the address it leads to is resolved instead. */
async function expand(
  classified: Exclude<Classified, { type: "phrase" }>,
  deadline: AbortSignal,
): Promise<Exclude<Classified, { type: "phrase" }>> {
  if (classified.type !== "url" || !classified.ref.needsNetwork || !enabledProviders().has("html")) return classified;
  try {
    return { type: "url", ref: recogniseUrl(await expandShortLink(classified.ref, recogniseUrl, deadline)) };
  } catch (error) {
    if (error instanceof ProviderError) return classified;
    throw error;
  }
}

function resolution(extra: Record<string, unknown>, providers: ProviderOutcome | null, entry: CatalogEntryView) {
  return {
    ...extra,
    partial: entry.partial,
    offline: providers === null,
    providers: providers?.used ?? [],
    warnings: providers?.warnings ?? [],
  };
}

async function resolveRef(
  tx: Queryable,
  inputType: "url" | "uri" | "identifier",
  ref: ParsedRef,
  providers: ProviderOutcome | null,
) {
  let id = await storeLookup(tx, ref, providers?.drafts ?? []);
  let matchedBy = id ? `provider:${providers?.used[0]}` : "catalog";
  if (!id) {
    const known = await findByIds(tx, ref.ids);
    if (known) id = known.id;
    // A link that names what another link left untitled (a Maps place after its bare coordinates)
    // fills that gap; the store never overwrites what is already known.
    const named = known?.partial && ref.hints.title ? fitDraft(draftFromRef(ref)) : null;
    if (named) await upsertDraft(tx, named);
  }
  let confidence: number | null = null;
  if (!id && !ref.needsNetwork) {
    const match = await matchByHints(tx, ref);
    if (match) {
      id = await upsertDraft(tx, attachDraft(ref, match, inputLink(ref)));
      matchedBy = "catalog_hints";
      confidence = match.confidence;
    }
  }
  if (!id) {
    const partial = ref.needsNetwork ? null : fitDraft(draftFromRef(ref));
    if (!partial) {
      throw new DomainError(
        "invalid_request",
        "This is a short link; it can only be followed with the network. Paste the full address.",
        {
          errors: [
            {
              pointer: "/input",
              code: "needs_network",
              message: "Short links are resolved by following their redirect.",
            },
          ],
        },
      );
    }
    id = await upsertDraft(tx, partial);
    matchedBy = "url_parser";
  }
  const entry = (await readCurrent(tx, id))?.entry;
  if (!entry) throw new Error("resolved entry is not readable");
  // What could not be asked in time (budget spent, deadline, outage) is asked again in the background.
  const completing = entry.partial && worthCompleting(providers);
  if (completing) await queueCompletion(tx, entry.id, ref.canonicalUrl);
  const first = ref.ids[0];
  return {
    ...entry,
    alternatives: [],
    resolution: resolution(
      {
        input_type: inputType,
        matched_by: matchedBy,
        platform: ref.platform,
        namespace: first?.namespace ?? null,
        value: first?.value ?? null,
        confidence: confidence ?? (entry.partial ? 0.5 : 1),
        completing,
      },
      providers,
      entry,
    ),
  };
}

async function resolvePhrase(tx: Queryable, phrase: string, domain: Domain | null, providers: ProviderOutcome | null) {
  const written: string[] = [];
  for (const draft of providers?.drafts ?? []) {
    const fitted = fitDraft(draft);
    if (fitted) written.push(await upsertDraft(tx, fitted));
  }
  let hits = (await searchCatalog(tx, { query: phrase, domain, limit: 6 })).hits;
  const matchedBy = written.length ? `provider:${providers?.used[0]}` : "catalog_search";
  // A provider may answer what trigram matching does not (a misspelling it corrected): keep its order.
  if (!hits.length && written.length) hits = (await readEntries(tx, [...new Set(written)])).map(asHit);
  const top = hits[0];
  if (!top) {
    if (providers?.warnings.length && !providers.drafts.length) {
      // Providers being down is no server error: the answer is what the offline catalog knows.
      throw new DomainError(
        "not_found",
        `Nothing in the catalog matches "${phrase}", and the providers could not be asked.`,
      );
    }
    throw new DomainError("not_found", `Nothing in the catalog matches "${phrase}".`);
  }
  const exact = hits.filter((hit) => hit.match === "exact");
  const clear = top.match === "exact" && exact.length === 1;
  const entry = (await readCurrent(tx, top.id))?.entry;
  if (!entry) throw new Error("matched entry is not readable");
  return {
    ...entry,
    alternatives: clear ? [] : hits.slice(1, 6).map(({ similarity: _s, ...hit }) => hit),
    resolution: resolution(
      {
        input_type: "phrase",
        matched_by: matchedBy,
        platform: null,
        namespace: null,
        value: null,
        confidence: Math.round((clear ? 1 : top.match === "exact" ? 0.9 : Math.min(top.similarity, 0.9)) * 100) / 100,
        completing: false,
      },
      providers,
      entry,
    ),
  };
}

function asHit(entry: CatalogEntryView): SearchHit {
  const { song_id, id, domain, kind, title, subtitle, creators, artwork, release_date } = entry;
  return {
    song_id,
    id,
    domain,
    kind,
    title,
    subtitle,
    creators,
    artwork,
    release_date,
    score: 0,
    match: "fuzzy",
    similarity: 0.5,
  };
}
