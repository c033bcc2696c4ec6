import dns from "node:dns";
import net from "node:net";

/**
 * The SSRF guard of every outbound request a member can aim (resolver page fetches, webhook
 * deliveries). Addresses such a request must never reach: loopback, private, link-local, CGNAT, multicast, reserved. */
const blocked = new net.BlockList();
for (const [address, prefix] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["198.51.100.0", 24],
  ["203.0.113.0", 24], ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(address, prefix, "ipv4");
}
for (const [address, prefix] of [
  ["::", 128], ["::1", 128], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8], ["64:ff9b::", 96], ["2001:db8::", 32],
] as const) {
  blocked.addSubnet(address, prefix, "ipv6");
}

export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !blocked.check(address, "ipv4");
  if (family !== 6) return false;
  // IPv4-mapped IPv6 (::ffff:127.0.0.1) is judged by the IPv4 address inside.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return !blocked.check(mapped[1], "ipv4");
  return !blocked.check(address, "ipv6");
}

/** Which hosts the caller exempts from the guard (tests, local development). */
export type AllowHost = (hostname: string) => boolean;

export class BlockedAddressError extends Error {
  readonly hostname: string;

  constructor(hostname: string) {
    super(`${hostname} resolves to a private or reserved address.`);
    this.name = "BlockedAddressError";
    this.hostname = hostname;
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node:http that resolves the name itself and refuses it unless every address is
 * public. Used as the connection's own lookup, the check and the connect see the same answer (no
 * DNS-rebinding window between them).
 */
export const guardedLookupFor =
  (isAllowListed: AllowHost) =>
  (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
  dns.lookup(hostname, { all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    if (!isAllowListed(hostname) && (!addresses.length || !addresses.every((a) => isPublicAddress(a.address)))) {
      return callback(Object.assign(new BlockedAddressError(hostname), { code: "EBLOCKED" }), []);
    }
    if (options.all) return callback(null, addresses);
    const first = addresses.find((a) => !options.family || a.family === options.family) ?? addresses[0];
    if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), []);
    callback(null, first.address, first.family);
  });
};

/**
 * Checks what can be judged before connecting: scheme, port (80/443 unless anyPort), and literal
 * IP hosts (no lookup runs for those).
 */
export function assertPublicUrl(url: URL, isAllowListed: AllowHost, options: { anyPort?: boolean } = {}): void {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new BlockedAddressError(host);
  if (isAllowListed(host)) return;
  if (!options.anyPort && url.port && url.port !== "80" && url.port !== "443") throw new BlockedAddressError(host);
  if (net.isIP(host) && !isPublicAddress(host)) throw new BlockedAddressError(host);
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal")) throw new BlockedAddressError(host);
}
