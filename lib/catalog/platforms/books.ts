import { isValidIsbn10, toIsbn13 } from "../isbn.ts";
import type { ParsedRef } from "../types.ts";
import { bareHost, ref, shortLink, slugToTitle } from "./shared.ts";

/** A bare ISBN names an edition; offline it has no title (a number is not one): Open Library gives it. */
export function isbnRef(isbn13: string): ParsedRef {
  return ref(
    "isbn",
    "books",
    "edition",
    [{ namespace: "isbn13", value: isbn13 }],
    `https://openlibrary.org/isbn/${isbn13}`,
  );
}

const AMAZON_PATH = /\/(?:dp|gp\/product|gp\/aw\/d|exec\/obidos\/ASIN|o\/ASIN)\/([A-Z0-9]{10})(?:[/?]|$)/;

/** Amazon serves books and products alike: an ASIN that is a valid ISBN-10 is a book. */
export function recogniseAmazon(url: URL): ParsedRef | null {
  const host = bareHost(url).replace(/^smile\./, "");
  if (/^(amzn\.(to|eu|asia)|a\.co)$/.test(host)) return shortLink("amazon", null, url);
  if (
    !/^amazon\.(com|ca|co\.uk|de|fr|it|es|nl|se|pl|co\.jp|in|com\.au|com\.br|com\.mx|sg|ae|sa|com\.tr|com\.be)$/.test(
      host,
    )
  ) {
    return null;
  }
  const match = AMAZON_PATH.exec(url.pathname);
  if (!match?.[1]) return null;
  const asin = match[1];
  const slug = url.pathname.split("/").filter(Boolean)[0];
  const hints = slug && !["dp", "gp", "exec", "o"].includes(slug) ? { title: slugToTitle(slug) } : {};
  const canonical = `https://www.${host}/dp/${asin}`;
  if (isValidIsbn10(asin)) {
    // A book's Amazon slug is keywords (title words, author, format), not its title: the ISBN
    // lets Open Library name it, so offline the edition stays untitled rather than mis-titled.
    const isbn13 = toIsbn13(asin) ?? asin;
    return ref(
      "amazon",
      "books",
      "edition",
      [
        { namespace: "isbn13", value: isbn13 },
        { namespace: "amazon:asin", value: asin },
      ],
      canonical,
    );
  }
  return ref("amazon", "products", "product", [{ namespace: "amazon:asin", value: asin }], canonical, hints);
}

export function recogniseBooks(url: URL): ParsedRef | null {
  const host = bareHost(url);
  if (host === "goodreads.com") {
    const match = /^\/(book\/show|work\/editions|author\/show|series)\/(\d+)(?:[.-]([^/]*))?\/?$/.exec(url.pathname);
    if (!match?.[1] || !match[2]) return null;
    const kind =
      { "book/show": "edition", "work/editions": "work", "author/show": "author", series: "series" }[match[1]] ??
      "edition";
    const ns =
      {
        "book/show": "goodreads:book",
        "work/editions": "goodreads:work",
        "author/show": "goodreads:author",
        series: "goodreads:series",
      }[match[1]] ?? "goodreads:book";
    return ref(
      "goodreads",
      "books",
      kind,
      [{ namespace: ns, value: match[2] }],
      `https://www.goodreads.com/${match[1]}/${match[2]}`,
      match[3] ? { title: slugToTitle(match[3]) } : {},
    );
  }
  if (host === "openlibrary.org") {
    const isbn = /^\/isbn\/([0-9Xx-]{10,17})(?:\.json)?\/?$/.exec(url.pathname);
    if (isbn?.[1]) {
      const isbn13 = toIsbn13(isbn[1]);
      return isbn13 ? isbnRef(isbn13) : null;
    }
    const match = /^\/(works|books|authors)\/(OL\d+[WMA])(?:\/([^/]*))?(?:\.json)?\/?$/.exec(url.pathname);
    if (!match?.[1] || !match[2]) return null;
    const kind = { works: "work", books: "edition", authors: "author" }[match[1]] ?? "work";
    return ref(
      "open_library",
      "books",
      kind,
      [{ namespace: `olid:${kind}`, value: match[2] }],
      `https://openlibrary.org/${match[1]}/${match[2]}`,
      match[3] ? { title: slugToTitle(match[3]) } : {},
    );
  }
  if (/^books\.google\.[a-z.]+$/.test(host) || (/^google\.[a-z.]+$/.test(host) && url.pathname.startsWith("/books"))) {
    const edition = /^\/books\/edition\/([^/]*)\/([A-Za-z0-9_-]{12})\/?$/.exec(url.pathname);
    const id = edition?.[2] ?? url.searchParams.get("id");
    if (!id || !/^[A-Za-z0-9_-]{12}$/.test(id)) return null;
    const slug = edition?.[1] ?? /^\/books\/about\/([^/]+)\.html$/.exec(url.pathname)?.[1];
    return ref(
      "google_books",
      "books",
      "edition",
      [{ namespace: "google_books:volume", value: id }],
      `https://books.google.com/books?id=${id}`,
      slug && slug !== "_" ? { title: slugToTitle(slug) } : {},
    );
  }
  if (host === "play.google.com" && url.pathname.startsWith("/store/books/details")) {
    const id = url.searchParams.get("id");
    if (!id || !/^[A-Za-z0-9_-]{12}$/.test(id)) return null;
    return ref(
      "google_books",
      "books",
      "edition",
      [{ namespace: "google_books:volume", value: id }],
      `https://books.google.com/books?id=${id}`,
    );
  }
  if (host === "bookshop.org" || host === "barnesandnoble.com") {
    const raw =
      url.searchParams.get("ean") ?? url.searchParams.get("isbn") ?? /\/(97[89]\d{10})(?:\/|$)/.exec(url.pathname)?.[1];
    const isbn13 = raw ? toIsbn13(raw) : null;
    return isbn13 ? { ...isbnRef(isbn13), platform: host === "bookshop.org" ? "bookshop" : "barnes_and_noble" } : null;
  }
  return recogniseAmazon(url);
}
