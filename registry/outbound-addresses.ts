/**
 * Which addresses the service's outbound requests may reach (lib/net/address-class.ts applies it;
 * the reference states it under webhook-endpoints and resolve).
 */
export const OUTBOUND_ADDRESS_RULE = [
  "Outbound requests a member can aim (webhook deliveries, article pages, client metadata documents) go only to public unicast addresses: every address a name resolves to is checked, at every attempt and every redirect hop, and the connection is made to the address that was checked.",
  "Refused: IPv4 0.0.0.0/8, 10/8, 100.64/10 (carrier-grade NAT), 127/8, 169.254/16 (cloud metadata among them), 172.16/12, 192.0.0/24, 192.0.2/24, 192.88.99/24, 192.168/16, 198.18/15, 198.51.100/24, 203.0.113/24, 224/4, 240/4 and 255.255.255.255;",
  "IPv6 ::, ::1, IPv4-compatible ::/96, IPv4-translated ::ffff:0:0:0/96, local-use NAT64 64:ff9b:1::/48, discard 100::/64, 2001::/23 (Teredo, benchmarking, ORCHID), 2001:db8::/32 and 3fff::/20 (documentation), 5f00::/16, unique local fc00::/7, link-local fe80::/10, site-local fec0::/10, multicast ff00::/8, and anything outside global unicast 2000::/3.",
  "IPv4-mapped ::ffff:0:0/96, NAT64 64:ff9b::/96 and 6to4 2002::/16 addresses are judged by the IPv4 address they carry. IPv4 hosts in decimal, octal, hex or short form are read as the URL standard reads them (2130706433, 0177.0.0.1, 0x7f.1 and 127.1 are all 127.0.0.1); an address with a zone id is never public; names ending in localhost, .local, .internal or .home.arpa are refused without a lookup.",
].join(" ");
