import type { CollectionType } from "../../registry/domains.ts";

export type Domain = CollectionType;

/** One identity of a thing on some platform: ("spotify:track", "0Jcij1eWd5bDMU5iPbxe2i"). */
export interface ExternalId {
  namespace: string;
  value: string;
}

export interface Creator {
  name: string;
  role: string;
  links?: Record<string, string>;
}

export interface Artwork {
  url: string;
  width: number | null;
  height: number | null;
  source: string;
}

export interface PlatformLink {
  url: string;
  source: string;
}

/**
 * What the offline recogniser reads from a URL or identifier, with no I/O. `ids` are the strong
 * identities (dedupe keys); `hints` are weaker facts read from the URL (a title from a slug,
 * coordinates from a map link) used to build a partial entry when nothing better is known.
 */
export interface ParsedRef {
  platform: string;
  /** Null when the URL alone cannot tell (a YouTube video may be a song or a talk). */
  domain: Domain | null;
  kind: string;
  ids: ExternalId[];
  canonicalUrl: string;
  hints: { title?: string; subtitle?: string; lat?: number; lng?: number; lang?: string; year?: string };
  /** Short links only resolve by following a redirect, which needs the network. */
  needsNetwork?: boolean;
}

/** A catalog entry as a provider or the recogniser proposes it, before it is stored. */
export interface EntryDraft {
  domain: Domain;
  kind: string;
  /** Null only in a partial draft: nothing is known yet that names the thing. */
  title: string | null;
  subtitle?: string | null;
  creators?: Creator[];
  artwork?: Artwork | null;
  platform_links?: Record<string, PlatformLink>;
  canonical_url?: string | null;
  release_date?: string | null;
  attributes?: Record<string, unknown>;
  partial?: boolean;
  source?: "seed" | "resolver" | "provider";
  external_ids: ExternalId[];
}
