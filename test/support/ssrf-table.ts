import type dns from "node:dns";
import net from "node:net";

/**
 * The SSRF address table (issue 30): hosts as a member would write them in a URL, literal or a
 * name answered by the DNS stand-in below, and whether an outbound request may go there.
 * `localName`: refused by name before any lookup. Literal hosts are judged when a URL is saved;
 * names only when a request connects (what they resolve to can change).
 */
export interface SsrfRow {
  host: string;
  public: boolean;
  /** For a name: what the DNS stand-in answers (every address must be public). */
  resolvesTo?: string[];
  localName?: boolean;
  why: string;
}

const refused = (host: string, why: string): SsrfRow => ({ host, public: false, why });
const allowed = (host: string, why: string): SsrfRow => ({ host, public: true, why });
const name = (host: string, resolvesTo: string[], isPublic: boolean, why: string): SsrfRow => ({
  host,
  resolvesTo,
  public: isPublic,
  why,
});

export const SSRF_TABLE: SsrfRow[] = [
  refused("127.0.0.1", "loopback"),
  refused("2130706433", "loopback, decimal"),
  refused("0177.0.0.1", "loopback, octal"),
  refused("127.1", "loopback, short form"),
  refused("0x7f.1", "loopback, hex short form"),
  refused("0x7f000001", "loopback, one hex number"),
  refused("127.0.0.1.", "loopback, trailing dot"),
  refused("10.0.0.7", "private 10/8"),
  refused("172.16.0.1", "private 172.16/12"),
  refused("192.168.1.1", "private 192.168/16"),
  refused("169.254.169.254", "link-local (cloud metadata)"),
  refused("0251.0376.0251.0376", "cloud metadata, octal"),
  refused("100.64.0.1", "carrier-grade NAT"),
  refused("0.0.0.0", "unspecified"),
  refused("224.0.0.1", "multicast"),
  refused("255.255.255.255", "broadcast"),
  refused("198.18.0.1", "benchmarking 198.18/15"),
  refused("192.0.2.1", "documentation TEST-NET-1"),
  refused("240.0.0.1", "reserved 240/4"),
  refused("[::1]", "IPv6 loopback"),
  refused("[::]", "IPv6 unspecified"),
  refused("[::127.0.0.1]", "IPv4-compatible ::/96, loopback"),
  refused("[::8.8.8.8]", "IPv4-compatible ::/96 (deprecated, never routed)"),
  refused("[::ffff:127.0.0.1]", "IPv4-mapped ::ffff:0:0/96, loopback"),
  refused("[::ffff:a9fe:a9fe]", "IPv4-mapped, metadata in hex"),
  refused("[::ffff:0:7f00:1]", "IPv4-translated ::ffff:0:0:0/96"),
  refused("[64:ff9b::10.0.0.1]", "NAT64 64:ff9b::/96, private"),
  refused("[64:ff9b::7f00:1]", "NAT64 64:ff9b::/96, loopback"),
  refused("[64:ff9b:1::808:808]", "local-use NAT64 64:ff9b:1::/48"),
  refused("[2002:7f00:1::1]", "6to4 2002::/16, loopback"),
  refused("[2002:a9fe:a9fe::1]", "6to4, metadata"),
  refused("[2001:0:4136:e378:8000:63bf:3fff:fdd2]", "Teredo 2001::/32"),
  refused("[fe80::1]", "IPv6 link-local"),
  refused("[fd00::1]", "unique local fc00::/7"),
  refused("[ff02::1]", "IPv6 multicast"),
  refused("[2001:db8::1]", "IPv6 documentation"),
  refused("[fec0::1]", "deprecated site-local"),
  refused("[100::1]", "discard-only 100::/64"),
  { host: "localhost", public: false, localName: true, why: "localhost by name" },
  { host: "api.localhost", public: false, localName: true, why: "a .localhost name" },
  { host: "metadata.google.internal", public: false, localName: true, why: "an .internal name" },
  { host: "printer.local", public: false, localName: true, why: "an mDNS .local name" },
  allowed("93.184.216.34", "public IPv4"),
  allowed("1572395042", "public IPv4, decimal"),
  allowed("[2606:4700:4700::1111]", "public IPv6"),
  allowed("[::ffff:8.8.8.8]", "IPv4-mapped public"),
  allowed("[64:ff9b::808:808]", "NAT64 of a public address (DNS64 networks)"),
  allowed("[2002:808:808::1]", "6to4 of a public address"),
  name("loopback.ssrf.test", ["127.0.0.1"], false, "name → loopback"),
  name("metadata.ssrf.test", ["169.254.169.254"], false, "name → metadata"),
  name("mixed.ssrf.test", ["93.184.216.34", "10.0.0.1"], false, "name → one public, one private"),
  name("mixed6.ssrf.test", ["2606:4700:4700::1111", "fd12::1"], false, "name → public IPv6 and unique local"),
  name("compat.ssrf.test", ["::7f00:1"], false, "name → IPv4-compatible loopback"),
  name("mapped.ssrf.test", ["::ffff:10.0.0.1"], false, "name → IPv4-mapped private"),
  name("nat64.ssrf.test", ["64:ff9b::c0a8:1"], false, "name → NAT64 of 192.168.0.1"),
  name("sixtofour.ssrf.test", ["2002:c0a8:1::1"], false, "name → 6to4 of 192.168.0.1"),
  name("teredo.ssrf.test", ["2001:0:4136:e378:8000:63bf:3fff:fdd2"], false, "name → Teredo"),
  name("scoped.ssrf.test", ["fe80::1%eth0"], false, "name → link-local with a zone id"),
  name("nothing.ssrf.test", [], false, "name with no address"),
  name("public.ssrf.test", ["93.184.216.34"], true, "name → public IPv4"),
  name("public6.ssrf.test", ["2606:4700:4700::1111"], true, "name → public IPv6"),
  name("dual.ssrf.test", ["93.184.216.34", "2606:4700:4700::1111"], true, "name → public IPv4 and IPv6"),
  name("nat64-public.ssrf.test", ["64:ff9b::808:808"], true, "name → NAT64 of a public address"),
];

/** The DNS stand-in: answers the table's names, ENOTFOUND for any other. */
export function tableResolver(asked: string[] = []) {
  const answers = new Map(SSRF_TABLE.filter((row) => row.resolvesTo).map((row) => [row.host, row.resolvesTo ?? []]));
  return async (hostname: string): Promise<dns.LookupAddress[]> => {
    asked.push(hostname);
    const list = answers.get(hostname);
    if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND", hostname });
    return list.map((address) => ({ address, family: net.isIPv6(address.replace(/%.*$/, "")) ? 6 : 4 }));
  };
}

/** The address(es) a request to this row may connect to: the literal, canonical, or the names' answer. */
export function connectAddresses(row: SsrfRow): string[] {
  if (row.resolvesTo) return row.resolvesTo;
  const host = new URL(`https://${row.host}/`).hostname.replace(/^\[|\]$/g, "");
  return [host];
}
