import net from "node:net";
import ipaddr from "ipaddr.js";

/**
 * Whether an outbound request may reach an address: the one classification behind every SSRF
 * check (webhook URLs and deliveries, the resolver's page fetches, guardedFetch).
 *
 * The range names are ipaddr.js's `range()`; only its 'unicast' passes, and for IPv6 only inside
 * global unicast 2000::/3. The few ranges below are added because ipaddr.js 1.x (the version
 * proxy-addr pins) does not name them; 2.x names most of them itself.
 */
export interface AddressVerdict {
  public: boolean;
  /** The address in canonical text (dotted IPv4, compressed IPv6); null when the text is not one. */
  address: string | null;
  /** ipaddr.js's range name, or ours: 'not-an-address', 'scoped', 'ipv4Compatible', 'nat64Local', 'benchmarking', … */
  range: string;
  /** The IPv4 address an IPv6 form carries (mapped, NAT64, 6to4), which decided the verdict. */
  embedded?: AddressVerdict;
}

const cidr = (text: string) => ipaddr.parseCIDR(text);
const EXTRA_V4: [string, ReturnType<typeof cidr>][] = [["benchmarking", cidr("198.18.0.0/15")]];
const EXTRA_V6: [string, ReturnType<typeof cidr>][] = [
  ["ipv4Compatible", cidr("::/96")], // deprecated (RFC 4291 2.5.5.1); ::127.0.0.1 is one
  ["nat64Local", cidr("64:ff9b:1::/48")], // local-use NAT64 (RFC 8215): a network's own translator
  ["ietfProtocol", cidr("2001::/23")], // Teredo, benchmarking, ORCHID, AMT, AS112 (RFC 2928)
  ["discard", cidr("100::/64")],
  ["siteLocal", cidr("fec0::/10")],
  ["documentation", cidr("3fff::/20")],
  ["segmentRouting", cidr("5f00::/16")],
];
const GLOBAL_UNICAST_V6 = cidr("2000::/3");
const NAT64_WELL_KNOWN = cidr("64:ff9b::/96");

const matches = (address: ipaddr.IPv4 | ipaddr.IPv6, [network, bits]: ReturnType<typeof cidr>) =>
  address.kind() === network.kind() && (address as ipaddr.IPv6).match(network as ipaddr.IPv6, bits);

const refused = (range: string, address: string | null = null): AddressVerdict => ({ public: false, address, range });

function classifyV4(address: ipaddr.IPv4): AddressVerdict {
  const text = address.toString();
  const extra = EXTRA_V4.find(([, range]) => matches(address, range));
  if (extra) return refused(extra[0], text);
  const range = address.range();
  return { public: range === "unicast", address: text, range };
}

const v4From = (parts: number[], at: number) =>
  new ipaddr.IPv4([
    (parts[at] ?? 0) >> 8,
    (parts[at] ?? 0) & 0xff,
    (parts[at + 1] ?? 0) >> 8,
    (parts[at + 1] ?? 0) & 0xff,
  ]);

/** An IPv6 form that carries an IPv4 address is judged by that address (a mapped or NAT64 one reaches it). */
function judgedByEmbedded(address: ipaddr.IPv6, range: string): AddressVerdict {
  const inner = classifyV4(range === "6to4" ? v4From(address.parts, 1) : v4From(address.parts, 6));
  return { public: inner.public, address: address.toString(), range, embedded: inner };
}

function classifyV6(address: ipaddr.IPv6): AddressVerdict {
  const text = address.toString();
  if (address.isIPv4MappedAddress()) return judgedByEmbedded(address, "ipv4Mapped");
  if (matches(address, NAT64_WELL_KNOWN)) return judgedByEmbedded(address, "rfc6052");
  const range = address.range();
  if (range === "6to4") return judgedByEmbedded(address, range);
  if (range !== "unicast") return refused(range, text);
  const extra = EXTRA_V6.find(([, named]) => matches(address, named));
  if (extra) return refused(extra[0], text);
  if (!matches(address, GLOBAL_UNICAST_V6)) return refused("notGlobalUnicast", text);
  return { public: true, address: text, range };
}

/**
 * IPv4 text in any form the URL standard reads as one (decimal 2130706433, octal 0177.0.0.1,
 * short 127.1, hex 0x7f.1) as dotted IPv4; null for anything else.
 */
function ipv4FromHostText(text: string): string | null {
  if (!/^[0-9a-fx.]+$/i.test(text)) return null;
  try {
    const host = new URL(`http://${text}/`).hostname;
    return net.isIPv4(host) ? host : null;
  } catch {
    return null;
  }
}

/**
 * Classifies an address given as text: dotted or any other IPv4 form, IPv6 with or without
 * brackets, with embedded IPv4. A zone id (fe80::1%eth0) makes it scoped, never public. A name or
 * anything unreadable is not public: names are judged by what they resolve to.
 */
export function classifyAddress(input: string): AddressVerdict {
  const text = input.trim().replace(/^\[(.*)\]$/, "$1");
  if (text.includes("%")) return refused("scoped");
  // The URL standard's serialisation (hex groups only) is a form every ipaddr.js version parses.
  if (net.isIPv6(text)) return classifyV6(ipaddr.IPv6.parse(new URL(`http://[${text}]/`).hostname.slice(1, -1)));
  const v4 = net.isIPv4(text) ? text : ipv4FromHostText(text);
  if (v4) return classifyV4(ipaddr.IPv4.parse(v4));
  return refused("not-an-address");
}

export const isPublicAddress = (address: string): boolean => classifyAddress(address).public;
