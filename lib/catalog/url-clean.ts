/**
 * Generic URL hygiene: parse what a member pasted, unwrap redirectors, drop tracking parameters,
 * and compute the dedupe key. Platform recognisers run on the cleaned URL.
 */

const TRACKING_PREFIXES = ["utm_", "ga_", "pk_", "mtm_", "hsa_", "piwik_", "matomo_", "pf_rd_", "pd_rd_"];
const TRACKING_NAMES = new Set(
  (
    "fbclid gclid gclsrc dclid gbraid wbraid gad_source msclkid yclid twclid ttclid li_fat_id igshid igsh mc_cid " +
    "mc_eid _hsenc _hsmi __hssc __hstc __hsfp hsctatracking mkt_tok oly_anon_id oly_enc_id vero_id vero_conv " +
    "rb_clickid s_cid srsltid _ga _gl spm scm ref_src ref_url cmpid ncid ocid sr_share si feature pp ab_channel " +
    "context nd dl_branch share_id sharesource"
  ).split(" "),
);
/** Extra parameters that only track on some hosts (elsewhere they may carry meaning). */
const HOST_TRACKING: readonly [RegExp, ReadonlySet<string>][] = [
  [
    /(^|\.)amazon\./,
    new Set(
      "ref ref_ tag psc qid sr keywords dchild crid sprefix th linkcode linkid camp creative creativeasin ascsubtag smid content-id encoding language".split(
        " ",
      ),
    ),
  ],
  [/(^|\.)apple\.com$/, new Set("uo at ct app ls itsct itscg mt l".split(" "))],
  [/(^|\.)bandcamp\.com$/, new Set(["from", "label", "tab"])],
  [/(^|\.)goodreads\.com$/, new Set(["from_search", "from_srp", "qid", "rank", "ac"])],
  [/(^|\.)imdb\.com$/, new Set(["ref_"])],
];

/** Accepts full URLs and bare host/path input like "open.spotify.com/track/…". */
export function parseUrlInput(input: string): URL | null {
  const text = input.trim();
  const candidate = /^[a-z][a-z0-9+.-]*:\/\//i.test(text)
    ? text
    : /^(?:www\.)?[\w-]+(\.[\w-]+)+(?::\d+)?(?:[/?#]|$)/i.test(text) && !/\s/.test(text)
      ? `https://${text}`
      : null;
  if (!candidate || !URL.canParse(candidate)) return null;
  const url = new URL(candidate);
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (!url.hostname.includes(".") && url.hostname !== "localhost") return null;
  return url;
}

/** Offline unwrapping of link redirectors and AMP caches; follows a few levels of nesting. */
export function unwrapRedirects(url: URL): URL {
  let current = url;
  for (let hop = 0; hop < 4; hop++) {
    const next = unwrapOnce(current);
    if (!next) return current;
    current = next;
  }
  return current;
}

function unwrapOnce(url: URL): URL | null {
  const host = url.hostname.replace(/^www\./, "");
  const param = (name: string) => {
    const value = url.searchParams.get(name);
    return value ? parseUrlInput(value) : null;
  };
  if (/^google\.[a-z.]+$/.test(host) && url.pathname === "/url") return param("q") ?? param("url");
  if (/^google\.[a-z.]+$/.test(host) && url.pathname.startsWith("/amp/s/")) {
    return parseUrlInput(`https://${url.pathname.slice("/amp/s/".length)}`);
  }
  if (/^(l|lm|m)\.facebook\.com$/.test(host) && url.pathname === "/l.php") return param("u");
  if (host === "out.reddit.com") return param("url");
  if (host === "w.soundcloud.com" && url.pathname.startsWith("/player")) return param("url");
  if (host.endsWith(".cdn.ampproject.org")) {
    const match = /^\/(?:c|v)\/(?:s\/)?(.+)$/.exec(url.pathname);
    if (match?.[1]) return parseUrlInput(`https://${match[1]}`);
  }
  return null;
}

function isTracking(host: string, key: string): boolean {
  const lower = key.toLowerCase();
  if (TRACKING_NAMES.has(lower) || TRACKING_PREFIXES.some((prefix) => lower.startsWith(prefix))) return true;
  return HOST_TRACKING.some(([pattern, names]) => pattern.test(host) && names.has(lower));
}

/** Canonical form for display and storage: no credentials, fragment or tracking; sorted query. */
export function cleanUrl(url: URL): URL {
  const clean = new URL(url.href);
  clean.username = "";
  clean.password = "";
  clean.hash = "";
  const host = clean.hostname.toLowerCase();
  const kept = [...clean.searchParams.entries()].filter(([key]) => !isTracking(host, key));
  kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  clean.search = new URLSearchParams(kept).toString();
  // Amazon puts tracking in the path too: /dp/B0…/ref=sr_1_1
  if (/(^|\.)amazon\./.test(host)) clean.pathname = clean.pathname.replace(/\/ref=[^/]*$/, "");
  return clean;
}

/** The key two spellings of one page share: https, no www./m., no trailing slash. */
export function dedupeKey(url: URL): string {
  const host = url.hostname.toLowerCase().replace(/^(www|m|mobile)\./, "");
  const path = url.pathname.replace(/\/+$/, "");
  return `https://${host}${url.port ? `:${url.port}` : ""}${path}${url.search}`;
}
