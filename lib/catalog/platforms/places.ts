import type { ParsedRef } from "../types.ts";
import { bareHost, ref, shortLink, slugToTitle } from "./shared.ts";

const COORDS = /^\s*(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$/;

export function parseCoordinates(text: string | null | undefined): { lat: number; lng: number } | null {
  const match = text ? COORDS.exec(text) : null;
  if (!match?.[1] || !match[2]) return null;
  const [lat, lng] = [Number(match[1]), Number(match[2])];
  return Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? { lat, lng } : null;
}

/** Places found only by coordinates dedupe on a ~10 m grid (5 decimals). */
const coordId = (lat: number, lng: number) => ({ namespace: "geo", value: `${lat.toFixed(5)},${lng.toFixed(5)}` });

/** Coordinates alone name no place: the entry stays untitled until a provider (Nominatim) names it. */
export function coordinatesRef(lat: number, lng: number, title?: string): ParsedRef {
  return ref(
    "coordinates",
    "places",
    "place",
    [coordId(lat, lng)],
    `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}`,
    {
      ...(title ? { title } : {}),
      lat,
      lng,
    },
  );
}

/** "Eiffel  tower" and "eiffel tower" are one search: the key is the normalised text. */
const queryId = (text: string) => ({
  namespace: "gmaps:query",
  value: text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim(),
});

export function recognisePlaces(url: URL, fragment = ""): ParsedRef | null {
  const host = bareHost(url);
  if (/^(maps\.app\.goo\.gl|goo\.gl|g\.co)$/.test(host)) {
    return host === "maps.app.goo.gl" || url.pathname.startsWith("/maps") || url.pathname.startsWith("/kgs")
      ? shortLink("google_maps", "places", url)
      : null;
  }
  if ((/^google\.[a-z.]+$/.test(host) && url.pathname.startsWith("/maps")) || /^maps\.google\.[a-z.]+$/.test(host)) {
    return googleMaps(url);
  }
  if (host === "openstreetmap.org" || host === "osm.org") return openStreetMap(url, fragment);
  if (host === "maps.apple.com" || host === "maps.apple") return appleMaps(url);
  return null;
}

function googleMaps(url: URL): ParsedRef | null {
  const href = decodeURIComponent(url.href);
  const name = /\/maps\/(?:place|search)\/([^/@]+)/.exec(url.pathname)?.[1];
  const title = name ? slugToTitle(name.replace(/\+\+/g, ", ")).replace(/ ,/g, ",") : undefined;
  const pin = /!3d(-?\d+(?:\.\d+)?)!4d(-?\d+(?:\.\d+)?)/.exec(href);
  const view = /\/@(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)/.exec(url.pathname);
  const feature = /!1s(0x[0-9a-f]+):(0x[0-9a-f]+)/.exec(href);
  const query = url.searchParams.get("query") ?? url.searchParams.get("q");
  const queryCoords = parseCoordinates(query);
  const lat = pin ? Number(pin[1]) : (queryCoords?.lat ?? (view ? Number(view[1]) : undefined));
  const lng = pin ? Number(pin[2]) : (queryCoords?.lng ?? (view ? Number(view[2]) : undefined));
  const cidParam = url.searchParams.get("cid");
  const cid = feature?.[2] ? BigInt(feature[2]).toString() : cidParam && /^\d+$/.test(cidParam) ? cidParam : null;
  const placeId = url.searchParams.get("query_place_id");
  const ids = [];
  if (cid) ids.push({ namespace: "gmaps:cid", value: cid });
  if (placeId) ids.push({ namespace: "gmaps:place_id", value: placeId });
  const label = title ?? (query?.trim() && !queryCoords ? query.trim().replace(/\s+/g, " ") : undefined);
  if (!ids.length && lat !== undefined && lng !== undefined) {
    const coords = coordinatesRef(lat, lng, label);
    return { ...coords, platform: "google_maps" };
  }
  if (!ids.length && label) {
    // A place searched by name (maps.google.com/?q=Eiffel+Tower, /maps/place/Eiffel+Tower): a place
    // all the same, named by what the member searched, identified by that search.
    const canonical = `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(label)}`;
    return ref("google_maps", "places", "place", [queryId(label)], canonical, { title: label });
  }
  if (!ids.length) return null;
  const canonical = cid
    ? `https://maps.google.com/?cid=${cid}`
    : `https://www.google.com/maps/search/?api=1&query_place_id=${placeId}`;
  return ref("google_maps", "places", "place", ids, canonical, { title: label, lat, lng });
}

function openStreetMap(url: URL, fragment: string): ParsedRef | null {
  const match = /^\/(node|way|relation)\/(\d+)\/?$/.exec(url.pathname);
  if (match?.[1] && match[2]) {
    return ref(
      "openstreetmap",
      "places",
      "place",
      [{ namespace: `osm:${match[1]}`, value: match[2] }],
      `https://www.openstreetmap.org/${match[1]}/${match[2]}`,
    );
  }
  const mlat = url.searchParams.get("mlat");
  const mlon = url.searchParams.get("mlon");
  const marker = mlat && mlon ? parseCoordinates(`${mlat},${mlon}`) : null;
  const hash = /map=\d+\/(-?\d+(?:\.\d+)?)\/(-?\d+(?:\.\d+)?)/.exec(fragment);
  const coords = marker ?? (hash?.[1] && hash[2] ? parseCoordinates(`${hash[1]},${hash[2]}`) : null);
  return coords ? { ...coordinatesRef(coords.lat, coords.lng), platform: "openstreetmap" } : null;
}

function appleMaps(url: URL): ParsedRef | null {
  const params = url.searchParams;
  const name = params.get("name") ?? params.get("q") ?? params.get("address") ?? undefined;
  const nameCoords = parseCoordinates(name);
  const coords = parseCoordinates(params.get("ll")) ?? parseCoordinates(params.get("coordinate")) ?? nameCoords;
  const title = name && !nameCoords ? name : undefined;
  const auid = params.get("auid");
  const placeId = params.get("place-id");
  const ids = [];
  if (auid && /^\d+$/.test(auid)) ids.push({ namespace: "apple_maps:auid", value: auid });
  if (placeId) ids.push({ namespace: "apple_maps:place_id", value: placeId });
  if (ids.length) {
    const canonical = auid
      ? `https://maps.apple.com/?auid=${auid}`
      : `https://maps.apple.com/place?place-id=${placeId}`;
    return ref("apple_maps", "places", "place", ids, canonical, { title, lat: coords?.lat, lng: coords?.lng });
  }
  if (coords) return { ...coordinatesRef(coords.lat, coords.lng, title), platform: "apple_maps" };
  if (url.hostname === "maps.apple" && url.pathname.startsWith("/p/")) return shortLink("apple_maps", "places", url);
  return null;
}
