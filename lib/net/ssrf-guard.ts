import dns from "node:dns";
import net from "node:net";
import { classifyAddress } from "./address-class.ts";

/**
 * The SSRF guard of every outbound request a member can aim (resolver page fetches, webhook
 * deliveries, guardedFetch). Which addresses pass is address-class.ts's one classification:
 * public unicast only, IPv6 forms judged by the IPv4 address they carry.
 */
export { classifyAddress, isPublicAddress } from "./address-class.ts";

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

/** Every address a name resolves to (the operating system's resolver, /etc/hosts included). */
export type ResolveName = (hostname: string) => Promise<dns.LookupAddress[]>;

const systemResolver: ResolveName = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });
let resolveName = systemResolver;

/**
 * Replaces the name resolver until the returned function is called: the tests' DNS stand-in, so
 * that names answering with any address can be tried without a DNS server.
 */
export function useNameResolver(resolver: ResolveName): () => void {
  resolveName = resolver;
  return () => {
    resolveName = systemResolver;
  };
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

const blocked = (hostname: string) => Object.assign(new BlockedAddressError(hostname), { code: "EBLOCKED" });

/**
 * A `lookup` for node:http that resolves the name itself and refuses it unless every address is
 * public. Used as the connection's own lookup, the connection goes to an address this checked,
 * from the same answer (no DNS-rebinding window between check and connect).
 */
export const guardedLookupFor =
  (isAllowListed: AllowHost) =>
  (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    resolveName(hostname).then(
      (addresses) => {
        if (
          !isAllowListed(hostname) &&
          (!addresses.length || !addresses.every((a) => classifyAddress(a.address).public))
        ) {
          return callback(blocked(hostname), []);
        }
        const wanted = addresses.filter((a) => !options.family || a.family === options.family);
        if (options.all) return callback(null, wanted);
        const first = wanted[0];
        if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), []);
        callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };

const LOCAL_NAMES = /(^|\.)(localhost|internal|local|home\.arpa)$/;

/**
 * Checks what can be judged before connecting: scheme, port (80/443 unless anyPort), literal IP
 * hosts (node connects to those without any lookup) and names that are local by definition. The
 * WHATWG URL parser has already turned decimal, octal, hex and short IPv4 hosts into dotted form.
 */
export function assertPublicUrl(url: URL, isAllowListed: AllowHost, options: { anyPort?: boolean } = {}): void {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new BlockedAddressError(host);
  if (isAllowListed(host)) return;
  if (!options.anyPort && url.port && url.port !== "80" && url.port !== "443") throw new BlockedAddressError(host);
  if (net.isIP(host)) {
    if (!classifyAddress(host).public) throw new BlockedAddressError(host);
    return;
  }
  if (LOCAL_NAMES.test(host.replace(/\.$/, ""))) throw new BlockedAddressError(host);
}
