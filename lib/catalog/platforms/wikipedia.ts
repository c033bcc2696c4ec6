import type { ParsedRef } from "../types.ts";
import { ref } from "./shared.ts";

const NAMESPACES =
  /^(special|file|category|talk|template|wikipedia|help|portal|user|module|draft|mediawiki|image)(?:_talk)?:/i;

/** Wikipedia articles: the domain is unknown offline (a film, a city or a person all have pages). */
export function recogniseWikipedia(url: URL): ParsedRef | null {
  const host = /^([a-z][a-z0-9-]*)(?:\.m)?\.wikipedia\.org$/.exec(url.hostname);
  if (!host?.[1] || host[1] === "www") return null;
  const lang = host[1];
  let title = /^\/wiki\/(.+)$/.exec(url.pathname)?.[1] ?? null;
  if (!title && url.pathname === "/w/index.php") title = url.searchParams.get("title");
  if (!title) {
    const curid = url.searchParams.get("curid");
    if (curid && /^\d+$/.test(curid)) {
      return ref(
        "wikipedia",
        null,
        "article",
        [{ namespace: `wikipedia:${lang}`, value: `curid:${curid}` }],
        `https://${lang}.wikipedia.org/?curid=${curid}`,
        { lang },
      );
    }
    return null;
  }
  let decoded = title;
  try {
    decoded = decodeURIComponent(title);
  } catch {
    // keep the raw title
  }
  decoded = decoded.replace(/_/g, " ").trim();
  if (!decoded || NAMESPACES.test(decoded.replace(/ /g, "_"))) return null;
  const key = decoded.charAt(0).toUpperCase() + decoded.slice(1);
  const path = encodeURIComponent(key.replace(/ /g, "_"))
    .replace(/%2F/g, "/")
    .replace(/%3A/g, ":")
    .replace(/%2C/g, ",");
  return ref(
    "wikipedia",
    null,
    "article",
    [{ namespace: `wikipedia:${lang.replace(/-/g, "_")}`, value: key }],
    `https://${lang}.wikipedia.org/wiki/${path}`,
    { title: key, lang },
  );
}
