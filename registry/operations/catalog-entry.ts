import { z } from "zod";
import { COLLECTION_TYPES } from "../domains.ts";

/** Shapes shared by resolve and search: a catalog entry is a fact shared by all members. */

export const creatorSchema = z
  .object({
    name: z.string(),
    role: z.string().describe("artist, author, director, brand, … (open set)."),
    links: z.record(z.string(), z.string()).optional().describe("The creator's pages, keyed by platform."),
  })
  .describe("A person or group behind the entry.");

export const artworkSchema = z
  .object({
    url: z.url(),
    width: z.int().nullable(),
    height: z.int().nullable(),
    source: z.string().describe("Where the image comes from (itunes, openlibrary, wikipedia, opengraph, …)."),
  })
  .nullable()
  .describe("Cover, poster or photo; null when none is known (clients draw a placeholder).");

export const domainSchema = z.enum(COLLECTION_TYPES).describe("The collection type this entry belongs to.");

export const songIdSchema = z
  .uuid()
  .describe("The catalog entry id, for every domain (not only music): pass it as song_id to items_create.");

export const catalogEntrySchema = z.object({
  song_id: songIdSchema,
  id: z.uuid().describe("The same value as song_id."),
  domain: domainSchema,
  kind: z.string().describe("track, album, artist, movie, edition, work, place, article, video, product, …"),
  title: z
    .string()
    .nullable()
    .describe(
      "The work's title. Null while nothing names it yet (partial is true): a title is never made up from an id. Show the platform and link instead; the title arrives when the entry is enriched.",
    ),
  subtitle: z.string().nullable().describe("Album, site, publisher or city, depending on the domain."),
  creators: z.array(creatorSchema),
  artwork: artworkSchema,
  platform_links: z
    .record(z.string(), z.object({ url: z.string(), source: z.string() }))
    .describe(
      "The same thing on other platforms, keyed by platform (spotify, apple_music, imdb, open_library, google_maps, …).",
    ),
  external_ids: z
    .record(z.string(), z.string())
    .describe("Identifiers keyed by namespace (spotify:track, isbn13, imdb, osm:node, url, …)."),
  canonical_url: z.string().nullable(),
  release_date: z.string().nullable().describe("YYYY, YYYY-MM or YYYY-MM-DD."),
  attributes: z.record(z.string(), z.unknown()).describe("Domain facts: duration_ms, isbn13, lat/lng, site, …"),
  partial: z
    .boolean()
    .describe(
      "true when the entry was built from the URL or identifier alone and awaits enrichment: title may be null, creators empty. A later resolve of the same link, once a provider answers, fills it in under the same song_id.",
    ),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso
    .datetime({ offset: true })
    .describe(
      "When the entry last changed. A resolve that adds nothing to it (the work saved again, by anyone) leaves it as it was.",
    ),
});

export const searchHitSchema = catalogEntrySchema
  .pick({
    song_id: true,
    id: true,
    domain: true,
    kind: true,
    title: true,
    subtitle: true,
    creators: true,
    artwork: true,
    release_date: true,
  })
  .extend({
    score: z.number().describe("Relevance; higher is better. Only comparable within one query."),
    match: z.enum(["exact", "prefix", "fuzzy"]).describe("How the title matched the query."),
  });
