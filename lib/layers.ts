/**
 * The layers of lib/, bottom first: each imports only from the tiers before its own (and registry/,
 * which imports nothing of lib/ or app/); layers in one tier do not import each other. Nothing in
 * lib/ or components/ imports app/. This list is the only place the order is written: the biome
 * rules that enforce it (noRestrictedImports in biome.json) are generated from it by
 * scripts/build-lint-layers.ts (npm run generate; --check fails when they are stale).
 */
export const LAYERS: readonly (readonly string[])[] = [
  ["config", "errors"],
  ["net"],
  ["db"],
  ["auth"],
  ["http"],
  ["catalog"],
  ["domain"],
  ["webhook-delivery"],
  ["pipeline"],
  ["upkeep", "surfaces"],
  ["web", "cli"],
];

/** What each layer is, for the rules' messages. */
export const LAYER_ROLES: Readonly<Record<string, string>> = {
  config: "the environment schema",
  errors: "the domain's error type",
  net: "outbound-request guards",
  db: "drivers, migrator, member transaction",
  auth: "tokens, sessions, callers",
  http: "framing, problems, limits, pagination",
  catalog: "resolve, providers, identity, cache, search",
  domain: "member resources' handlers, store rules",
  "webhook-delivery": "the outbox worker",
  pipeline: "the one request pipeline",
  upkeep: "scheduled clean-up",
  surfaces: "REST, invoke, MCP, OpenAPI",
  web: "settings pages, auth backends",
  cli: "the command line",
};

/** Layers that refuse with DomainError (lib/errors) and never build the HTTP error class themselves. */
export const DOMAIN_ERROR_LAYERS: readonly string[] = ["catalog", "domain"];

/** The order as one line: registry < config|errors < net < … */
export const LAYER_ORDER = ["registry", ...LAYERS.map((tier) => tier.join("|"))].join(" < ");
