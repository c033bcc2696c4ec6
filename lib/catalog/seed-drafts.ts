import fs from "node:fs";
import path from "node:path";
import { idLink } from "./id-links.ts";
import { toIsbn10, toIsbn13 } from "./isbn.ts";
import type { Creator, Domain, EntryDraft, ExternalId, PlatformLink } from "./types.ts";
import { dedupeKey } from "./url-clean.ts";

/**
 * Turns the hand-written seed files (supabase/seed/catalog/*.json, compact rows of public facts)
 * into catalog drafts. scripts/build-catalog-seed.ts writes them into a migration, so the seed is
 * loaded by the same migrator on PGlite and on a server, and a test fails if the two drift.
 */
export const SEED_DIR = path.join(process.cwd(), "supabase", "seed", "catalog");

type Ids = Record<string, string>;
const readSeed = (name: string): Record<string, unknown[][]> =>
  JSON.parse(fs.readFileSync(path.join(SEED_DIR, `${name}.json`), "utf8"));

const slug = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

function idsAndLinks(ids: Ids): { external_ids: ExternalId[]; platform_links: Record<string, PlatformLink> } {
  const links: Record<string, PlatformLink> = {};
  const external: ExternalId[] = [];
  for (const [namespace, value] of Object.entries(ids)) {
    if (namespace === "isbn13" && toIsbn13(value) !== value) throw new Error(`seed ISBN ${value} fails its checksum`);
    external.push({ namespace, value });
    const link = idLink(namespace, value);
    if (link && !links[link[0]]) links[link[0]] = { url: link[1], source: "seed" };
  }
  return { external_ids: external, platform_links: links };
}

const people = (names: string, role: string): Creator[] => names.split(" & ").map((name) => ({ name, role }));

function draft(
  domain: Domain,
  kind: string,
  title: string,
  key: string,
  rest: Partial<EntryDraft>,
  ids: Ids = {},
): EntryDraft {
  const { external_ids, platform_links } = idsAndLinks(ids);
  return {
    domain,
    kind,
    title,
    subtitle: null,
    creators: [],
    artwork: null,
    canonical_url: null,
    release_date: null,
    attributes: {},
    ...rest,
    platform_links: { ...platform_links, ...rest.platform_links },
    source: "seed",
    external_ids: [{ namespace: "seed", value: `${domain}/${kind}/${slug(key)}` }, ...external_ids],
  };
}

const str = (v: unknown) => (typeof v === "string" ? v : null);
const obj = (v: unknown) => (v && typeof v === "object" && !Array.isArray(v) ? (v as Ids) : {});

export function seedDrafts(): EntryDraft[] {
  const out: EntryDraft[] = [];
  const music = readSeed("music");
  for (const [t, a, y, album, ids] of music.tracks ?? []) {
    const [title, artist, year] = [String(t), String(a), str(y)];
    const spotify = obj(ids)["spotify:track"];
    const canonical = spotify ? `https://open.spotify.com/track/${spotify}` : null;
    out.push(
      draft(
        "music",
        "track",
        title,
        `${title} ${artist}`,
        { subtitle: str(album), creators: people(artist, "artist"), release_date: year, canonical_url: canonical },
        obj(ids),
      ),
    );
  }
  for (const [t, a, y, ids] of music.albums ?? []) {
    out.push(
      draft(
        "music",
        "album",
        String(t),
        `${t} ${a}`,
        { subtitle: String(a), creators: people(String(a), "artist"), release_date: str(y) },
        obj(ids),
      ),
    );
  }
  for (const [t, c] of music.pieces ?? []) {
    out.push(
      draft("music", "piece", String(t), `${t} ${c}`, { subtitle: String(c), creators: people(String(c), "composer") }),
    );
  }
  const film = readSeed("film");
  for (const [t, y, d, imdb, tmdb] of film.movies ?? []) {
    const ids = { imdb: String(imdb), "tmdb:movie": String(tmdb) };
    out.push(
      draft(
        "film",
        "movie",
        String(t),
        `${t} ${y}`,
        {
          subtitle: String(y),
          creators: people(String(d), "director"),
          release_date: str(y),
          canonical_url: `https://www.imdb.com/title/${imdb}/`,
        },
        ids,
      ),
    );
  }
  for (const [t, y, imdb, tmdb] of film.series ?? []) {
    out.push(
      draft(
        "film",
        "tv_series",
        String(t),
        `${t} ${y}`,
        { subtitle: `TV series, ${y}`, release_date: str(y) },
        { imdb: String(imdb), "tmdb:tv": String(tmdb) },
      ),
    );
  }
  for (const [t, a, y, raw] of readSeed("books").books ?? []) {
    const ids = obj(raw);
    const isbn = ids.isbn13;
    out.push(
      draft(
        "books",
        isbn ? "edition" : "work",
        String(t),
        `${t} ${a}`,
        {
          subtitle: String(a),
          creators: people(String(a), "author"),
          release_date: str(y),
          artwork: isbn
            ? {
                url: `https://covers.openlibrary.org/b/isbn/${isbn}-L.jpg`,
                width: null,
                height: null,
                source: "openlibrary",
              }
            : null,
          attributes: isbn
            ? { isbn13: isbn, isbn10: toIsbn10(isbn), first_publish_year: Number(y) }
            : { first_publish_year: Number(y) },
        },
        ids,
      ),
    );
  }
  for (const [n, sub, lat, lng, kind, raw] of readSeed("places").places ?? []) {
    const ids = obj(raw);
    out.push(
      draft(
        "places",
        String(kind),
        String(n),
        `${n} ${sub}`,
        {
          subtitle: String(sub),
          attributes: { lat, lng },
          canonical_url: ids["wikipedia:en"] ? (idLink("wikipedia:en", ids["wikipedia:en"])?.[1] ?? null) : null,
          platform_links: {
            openstreetmap: {
              url: `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=16/${lat}/${lng}`,
              source: "seed",
            },
          },
        },
        { ...ids, geo: `${Number(lat).toFixed(5)},${Number(lng).toFixed(5)}` },
      ),
    );
  }
  for (const [t, a, site, date, url, raw] of readSeed("articles").articles ?? []) {
    const address = str(url);
    const ids = { ...obj(raw), ...(address ? { url: dedupeKey(new URL(address)) } : {}) };
    out.push(
      draft(
        "articles",
        "article",
        String(t),
        `${t} ${a}`,
        {
          subtitle: String(site),
          creators: people(String(a), "author"),
          release_date: str(date),
          canonical_url: address,
          platform_links: address ? { website: { url: address, source: "seed" } } : {},
        },
        ids,
      ),
    );
  }
  for (const [n, brand, y, category] of readSeed("products").products ?? []) {
    out.push(
      draft("products", "product", `${brand} ${n}`, `${brand} ${n}`, {
        subtitle: String(brand),
        creators: people(String(brand), "brand"),
        release_date: str(y),
        attributes: { brand, category },
      }),
    );
  }
  return out;
}
