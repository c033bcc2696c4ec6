import { z } from "zod";
import { toIsbn10 } from "../isbn.ts";
import type { Creator, EntryDraft, ExternalId } from "../types.ts";
import { foundNothing, getJson, providerUrl } from "./http.ts";
import { idOf, type Provider, parseBody } from "./provider.ts";

const Doc = z.looseObject({
  key: z.string(),
  title: z.string(),
  author_name: z.array(z.string()).optional(),
  author_key: z.array(z.string()).optional(),
  first_publish_year: z.number().optional(),
  cover_i: z.number().optional(),
  isbn: z.array(z.string()).optional(),
});
const SearchAnswer = z.looseObject({ docs: z.array(Doc) });
const BookData = z.looseObject({
  title: z.string(),
  key: z.string().optional(),
  url: z.string().optional(),
  authors: z.array(z.looseObject({ name: z.string(), url: z.string().optional() })).optional(),
  publishers: z.array(z.looseObject({ name: z.string() })).optional(),
  publish_date: z.string().optional(),
  number_of_pages: z.number().optional(),
  identifiers: z.record(z.string(), z.array(z.string())).optional(),
  cover: z.looseObject({ large: z.string().optional(), medium: z.string().optional() }).optional(),
});
const BooksAnswer = z.record(z.string(), BookData);

const authorLinks = (key: string | undefined): Record<string, string> =>
  key ? { open_library: `https://openlibrary.org/authors/${key}` } : {};

const linkOf = (url: string | undefined): Record<string, string> => (url ? { open_library: url } : {});

const year = (text: string | undefined) => /\b(1\d{3}|20\d{2})\b/.exec(text ?? "")?.[1] ?? null;

/** Open Library: editions by ISBN or edition id (Books API), works and phrases by search. */
export const openlibrary: Provider = {
  id: "openlibrary",
  async lookup(ref, settings) {
    const isbn = idOf(ref, "isbn13");
    const edition = idOf(ref, "olid:edition");
    const work = idOf(ref, "olid:work");
    if (isbn || edition) {
      const bibkey = isbn ? `ISBN:${isbn}` : `OLID:${edition}`;
      const body = await getJson(
        settings,
        providerUrl(settings.baseUrl, "/api/books", { bibkeys: bibkey, format: "json", jscmd: "data" }),
        foundNothing(),
      );
      const data = body === null ? undefined : parseBody("openlibrary", BooksAnswer, body)[bibkey];
      return data ? fromBookData(data, isbn) : null;
    }
    if (work) {
      const drafts = await search(settings, { q: `key:/works/${work}` });
      return drafts[0] ?? null;
    }
    return null;
  },
  async search(phrase, domain, settings) {
    if (domain && domain !== "books") return [];
    return search(settings, { q: phrase });
  },
};

async function search(
  settings: Parameters<NonNullable<Provider["search"]>>[2],
  query: { q: string },
): Promise<EntryDraft[]> {
  const fields = "key,title,author_name,author_key,first_publish_year,cover_i,isbn";
  const body = await getJson(
    settings,
    providerUrl(settings.baseUrl, "/search.json", { ...query, fields, limit: 5 }),
    foundNothing("docs"),
  );
  if (body === null) return [];
  return parseBody("openlibrary", SearchAnswer, body).docs.map((doc) => {
    const olid = doc.key.replace(/^\/works\//, "");
    return {
      domain: "books",
      kind: "work",
      title: doc.title,
      creators: (doc.author_name ?? []).map((name, i) => ({
        name,
        role: "author",
        links: authorLinks(doc.author_key?.[i]),
      })),
      artwork: doc.cover_i
        ? {
            url: `https://covers.openlibrary.org/b/id/${doc.cover_i}-L.jpg`,
            width: null,
            height: null,
            source: "openlibrary",
          }
        : null,
      platform_links: { open_library: { url: `https://openlibrary.org/works/${olid}`, source: "openlibrary" } },
      canonical_url: `https://openlibrary.org/works/${olid}`,
      release_date: doc.first_publish_year ? String(doc.first_publish_year) : null,
      attributes: doc.first_publish_year ? { first_publish_year: doc.first_publish_year } : {},
      external_ids: [{ namespace: "olid:work", value: olid }],
    } satisfies EntryDraft;
  });
}

function fromBookData(data: z.output<typeof BookData>, isbn: string | undefined): EntryDraft {
  const ids: ExternalId[] = [];
  const isbn13 = isbn ?? data.identifiers?.isbn_13?.[0];
  if (isbn13) ids.push({ namespace: "isbn13", value: isbn13 });
  const olid = data.identifiers?.openlibrary?.[0];
  if (olid) ids.push({ namespace: "olid:edition", value: olid });
  const goodreads = data.identifiers?.goodreads?.[0];
  if (goodreads) ids.push({ namespace: "goodreads:book", value: goodreads });
  const links: EntryDraft["platform_links"] = {};
  if (data.url) links.open_library = { url: data.url, source: "openlibrary" };
  if (goodreads) links.goodreads = { url: `https://www.goodreads.com/book/show/${goodreads}`, source: "openlibrary" };
  const cover = data.cover?.large ?? data.cover?.medium;
  return {
    domain: "books",
    kind: "edition",
    title: data.title,
    subtitle: data.publishers?.[0]?.name ?? null,
    creators: (data.authors ?? []).map((a): Creator => ({ name: a.name, role: "author", links: linkOf(a.url) })),
    artwork: cover ? { url: cover, width: null, height: null, source: "openlibrary" } : null,
    platform_links: links,
    canonical_url: data.url ?? null,
    release_date: year(data.publish_date),
    attributes: {
      ...(isbn13 ? { isbn13, isbn10: toIsbn10(isbn13) } : {}),
      ...(data.number_of_pages ? { page_count: data.number_of_pages } : {}),
      ...(data.publishers?.[0] ? { publisher: data.publishers[0].name } : {}),
    },
    external_ids: ids,
  };
}
