import { z } from "zod";
import type { EntryDraft, ExternalId } from "../types.ts";
import { foundNothing, getJson, providerUrl } from "./http.ts";
import { type Provider, parseBody } from "./provider.ts";

const Place = z.looseObject({
  osm_type: z.enum(["node", "way", "relation"]).optional(),
  osm_id: z.number().optional(),
  lat: z.string(),
  lon: z.string(),
  name: z.string().optional(),
  display_name: z.string(),
  category: z.string().optional(),
  type: z.string().optional(),
  address: z.record(z.string(), z.string()).optional(),
});

function toDraft(place: z.output<typeof Place>): EntryDraft {
  const [lat, lng] = [Number(place.lat), Number(place.lon)];
  const ids: ExternalId[] = [];
  if (place.osm_type && place.osm_id !== undefined)
    ids.push({ namespace: `osm:${place.osm_type}`, value: String(place.osm_id) });
  const osmUrl = place.osm_type ? `https://www.openstreetmap.org/${place.osm_type}/${place.osm_id}` : null;
  const city = place.address?.city ?? place.address?.town ?? place.address?.village ?? null;
  return {
    domain: "places",
    kind: "place",
    title: place.name || (place.display_name.split(",")[0] ?? place.display_name),
    subtitle: [city, place.address?.country].filter(Boolean).join(", ") || null,
    creators: [],
    platform_links: osmUrl ? { openstreetmap: { url: osmUrl, source: "nominatim" } } : {},
    canonical_url: osmUrl,
    attributes: {
      lat,
      lng,
      address: place.display_name,
      ...(place.address?.country_code ? { country_code: place.address.country_code.toUpperCase() } : {}),
      ...(place.category ? { category: `${place.category}${place.type ? `/${place.type}` : ""}` } : {}),
      attribution: "© OpenStreetMap contributors (ODbL)",
    },
    external_ids: ids,
  };
}

/** Nominatim: OSM objects by id, coordinates by reverse lookup, phrases by search (never per keystroke). */
export const nominatim: Provider = {
  id: "nominatim",
  async lookup(ref, settings) {
    const osm = ref.ids.find((id) => id.namespace.startsWith("osm:"));
    let url: string | null = null;
    if (osm) {
      const letter = osm.namespace.slice(4, 5).toUpperCase();
      url = providerUrl(settings.baseUrl, "/lookup", {
        osm_ids: `${letter}${osm.value}`,
        format: "jsonv2",
        addressdetails: 1,
      });
    } else if (ref.hints.lat !== undefined && ref.hints.lng !== undefined && !ref.hints.title) {
      url = providerUrl(settings.baseUrl, "/reverse", {
        lat: ref.hints.lat,
        lon: ref.hints.lng,
        format: "jsonv2",
        addressdetails: 1,
      });
    }
    if (!url) return null;
    const body = await getJson(settings, url, foundNothing());
    if (body === null) return null;
    const places = parseBody("nominatim", z.union([z.array(Place), Place]), body);
    const first = Array.isArray(places) ? places[0] : places;
    return first ? toDraft(first) : null;
  },
  async search(phrase, domain, settings) {
    if (domain !== "places") return [];
    const body = await getJson(
      settings,
      providerUrl(settings.baseUrl, "/search", { q: phrase, format: "jsonv2", addressdetails: 1, limit: 5 }),
      foundNothing(),
    );
    if (body === null) return [];
    return parseBody("nominatim", z.array(Place), body).map(toDraft);
  },
};
