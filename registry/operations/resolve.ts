import { z } from "zod";
import { defineOperation } from "../define.ts";
import { catalogEntrySchema, searchHitSchema } from "./catalog-entry.ts";

export const resolve = defineOperation({
  name: "resolve",
  summary: "Resolve a URL or phrase to a catalog item",
  description:
    "Turn a URL (Spotify, Apple Music, YouTube, Deezer, SoundCloud, Tidal, Bandcamp, IMDb, TMDB, Letterboxd, " +
    "Open Library, Goodreads, Google Books, Amazon, Google Maps, OpenStreetMap, Apple Maps, Wikipedia or any " +
    "article), an identifier (ISBN-10/13, IMDb tt…, spotify: URI, coordinates) or a plain phrase into a " +
    "structured catalog item. Its song_id can be passed as song_id to items_create.",
  method: "POST",
  path: "/resolve",
  scope: "items:read",
  rateLimit: "resolver",
  input: z.strictObject({
    input: z
      .string()
      .trim()
      .min(1)
      .max(2048)
      .describe(
        'A URL, an identifier, or a phrase; "book: …", "film: …", "song: …", "place: …" narrow a phrase to one domain.',
      ),
  }),
  output: catalogEntrySchema.extend({
    alternatives: z
      .array(searchHitSchema)
      .max(5)
      .describe("For an ambiguous phrase, up to five other candidates; else empty."),
    resolution: z.object({
      input_type: z.enum(["url", "uri", "identifier", "phrase"]),
      matched_by: z
        .string()
        .describe(
          "catalog (the id was known), url_parser (built offline from the URL), catalog_search (a phrase), or provider:<id>.",
        ),
      platform: z.string().nullable().describe("The platform the URL or identifier belongs to."),
      namespace: z.string().nullable(),
      value: z.string().nullable(),
      confidence: z.number().min(0).max(1).describe("1 for an id match; lower for a partial entry or a fuzzy phrase."),
      partial: z.boolean(),
      completing: z
        .boolean()
        .describe(
          "true when the entry is partial because a provider could not be asked in time (its shared request budget spent, the deadline reached, an outage) and is queued for the background worker: read it again with catalog_get (GET /catalog/{song_id}) until partial is false.",
        ),
      offline: z.boolean().describe("true when no upstream provider was asked for this answer."),
      providers: z.array(z.string()).describe("Providers whose answers were used."),
      warnings: z
        .array(z.object({ provider: z.string(), code: z.string(), message: z.string() }))
        .describe(
          "Providers that failed or were skipped (timeout, rate_limited, network, circuit_open, budget_exhausted, malformed, …); the answer is then what was known without them.",
        ),
    }),
  }),
  rules: [
    "Only http(s) links are resolved: any other scheme (ftp://, javascript:, data:, file://, mailto:, …) is 422 unsupported_scheme. URLs are recognised offline: tracking parameters (utm_*, fbclid, si, …) and redirect wrappers are removed, mobile and locale forms are normalised, and the platform's id becomes the entry's identity.",
    "One entry per work: an entry's external ids (ISRC; Spotify, Apple, Deezer, YouTube, Tidal, SoundCloud ids; MusicBrainz ids; ISBN, written as ISBN-13; Open Library, IMDb, TMDB, Wikidata and OpenStreetMap ids) each name one entry, so a link of any platform whose id an entry has answers that entry, offline too, and resolving the same work twice, or at once from two requests, answers the same song_id. When a provider reveals that two entries are one work, they are merged (see catalog_get: the complete entry survives, then the older; items are repointed).",
    "partial: a link the catalog does not know yet (and no provider could name in time) is stored as a partial entry built from the link alone, so resolve always answers with a song_id: partial is true, confidence 0.5, resolution names the platform, namespace and value, and platform_links/canonical_url carry the link. Its title is what the link itself names (a Letterboxd or Goodreads slug, a Google Maps place or search) or null; it is never made up from an id. A later resolve of the same link, once a provider answers, fills the entry in under the same song_id, and partial becomes false.",
    "Google Maps links are places: a pin or feature id (cid, place id), a position, or a search by name (maps.google.com/?q=…, /maps/place/<name>, /maps/search/<name>); maps.app.goo.gl short links are followed when the page provider is on.",
    "A phrase is matched against the catalog as GET /search does; when the best match is not a single exact title, up to five alternatives are returned.",
    "Providers are on by default: the keyless ones (Odesli, iTunes Search, MusicBrainz with Cover Art Archive, Open Library, Wikipedia, and the page's OpenGraph/oEmbed tags), plus Nominatim when the operator configures a contact address (RESOLVER_CONTACT; its usage policy asks for one). RESOLVER_PROVIDERS=off answers from the offline catalog alone; a comma list picks providers. They are asked for a link the catalog does not know or holds only partially, and for a phrase the catalog does not match well.",
    "Request budgets: each provider's documented request budget (Odesli 10/min without a key, iTunes about 20/min, MusicBrainz, Open Library and Nominatim 1/s) is shared by every instance of the service. A resolve never waits for the budget past its deadline: the provider is skipped with a budget_exhausted warning, the answer is what is known (partial: true when nothing names the link yet), resolution.completing is true, and the entry is completed in the background; read it with catalog_get (GET /catalog/{song_id}) until partial is false.",
    "Deadline: one resolve spends at most RESOLVER_DEADLINE_MS (default 2500 ms) on providers in total, retries and waits included; providers are asked at once, and one still busy at the deadline is abandoned with a timeout warning. A provider that fails repeatedly is skipped for a cool-down (circuit breaker, circuit_open warning); one whose name does not resolve (no network) is skipped at once. A failing provider adds a warning and never fails the call: the answer is what the catalog knows.",
    "Cache: every provider answer is kept in the database, shared by all instances and across restarts, so a link or phrase already resolved is not asked upstream again for RESOLVER_CACHE_TTL_SECONDS (default 7 days). A failed look-up (not found, nothing matched, a refused request) is kept only RESOLVER_CACHE_FAILURE_TTL_SECONDS (default 10 minutes) and then asked again; outages (timeouts, 5xx, rate limits, no network) are never cached. A cached answer is reported like a fresh one (providers, warnings).",
    "Short links (spotify.link, maps.app.goo.gl, amzn.to, boxd.it, …) are followed only when the page provider is enabled, through the same guard, to the first address the recogniser knows; offline they are refused with needs_network.",
    "Article pages are fetched only at public addresses, on ports 80/443, with at most 5 redirects: the same address rule as webhook deliveries (see webhook-endpoints).",
    "Catalog entries are shared facts: every member reads them, and only the resolver writes them.",
  ],
  errors: [
    {
      status: 422,
      code: "invalid_request",
      when: "The input is empty or too long, a link's scheme is not http(s) (unsupported_scheme), an ISBN's check digit is wrong (invalid_isbn), or a short link cannot be followed (needs_network: offline, or the redirect failed).",
    },
    {
      status: 404,
      code: "not_found",
      when: "A phrase matches nothing in the catalog and no provider found it (or none could be asked: providers down or no network is not a server error).",
    },
    { status: 429, code: "rate_limited", when: "The resolver's own, tighter bucket is empty." },
  ],
});
