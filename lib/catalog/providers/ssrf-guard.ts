import { type AllowHost, assertPublicUrl, guardedLookupFor } from "../../net/ssrf-guard.ts";
import { privateHostAllowList } from "./config.ts";

export { BlockedAddressError, isPublicAddress } from "../../net/ssrf-guard.ts";

/** The resolver's exemptions: RESOLVER_ALLOW_PRIVATE_HOSTS. */
export const isAllowListed: AllowHost = (hostname) => privateHostAllowList().has(hostname.toLowerCase());

export const guardedLookup = guardedLookupFor(isAllowListed);

export const assertFetchable = (url: URL): void => assertPublicUrl(url, isAllowListed);
