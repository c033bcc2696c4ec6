// Writes the import rules of biome.json (noRestrictedImports overrides) from the layer list in
// lib/layers.ts: each layer of lib/ may import only the tiers below it, registry/ imports nothing of
// lib/ or app/, and nothing in lib/ or components/ imports app/. Run by npm run generate.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { DOMAIN_ERROR_LAYERS, LAYER_ORDER, LAYER_ROLES, LAYERS } from "../lib/layers.ts";

const FILE = "biome.json";
const APP = ["**/app/**", "@/app/**"];

type Override = { includes: string[]; linter?: { rules?: { style?: { noRestrictedImports?: unknown } } } };

type Pattern = { group: string[]; message: string; importNamePattern?: string };

const rule = (includes: string[], group: string[], message: string, more: Pattern[] = []): Override => ({
  includes,
  linter: {
    rules: {
      style: { noRestrictedImports: { level: "error", options: { patterns: [{ group, message }, ...more] } } },
    },
  },
});

const raisesDomainErrors = (layer: string): Pattern[] =>
  DOMAIN_ERROR_LAYERS.includes(layer)
    ? [
        {
          group: ["**/http/problem.ts"],
          importNamePattern: "ApiError",
          message: `lib/${layer} raises DomainError (lib/errors/domain-error.ts); the HTTP edge maps it to problem+json.`,
        },
      ]
    : [];

const generated: Override[] = [
  rule(
    ["registry/**"],
    ["**/lib/**", "@/lib/**", ...APP],
    "registry/ is pure data: it imports nothing of lib/ or app/.",
  ),
];
LAYERS.forEach((tier, index) => {
  const above = LAYERS.slice(index + 1).flat();
  for (const layer of tier) {
    const siblings = tier.filter((other) => other !== layer);
    const forbidden = [...siblings, ...above].map((other) => `**/${other}/**`);
    const below = index === 0 ? "registry" : LAYERS[index - 1]?.join("|");
    generated.push(
      rule(
        [`lib/${layer}/**`],
        [...forbidden, ...APP],
        `lib/${layer} (${LAYER_ROLES[layer] ?? layer}) sits on ${below}: ${LAYER_ORDER} (lib/layers.ts).`,
        raisesDomainErrors(layer),
      ),
    );
  }
});
generated.push(
  rule(
    ["components/**"],
    APP,
    "components/ never import app/: what a page and a component share lives in lib/ or components/.",
  ),
);

const config = JSON.parse(fs.readFileSync(FILE, "utf8")) as { overrides?: Override[] };
const kept = (config.overrides ?? []).filter((override) => !override.linter?.rules?.style?.noRestrictedImports);
config.overrides = [...kept, ...generated];
fs.writeFileSync(FILE, `${JSON.stringify(config, null, 2)}\n`);
// In the shape biome's own formatter gives it, so `biome check` and `generate --check` agree.
const biome = spawnSync(
  path.join("node_modules", ".bin", "biome"),
  ["check", "--formatter-enabled=true", "--linter-enabled=false", "--write", FILE],
  { encoding: "utf8" },
);
if (biome.status !== 0) throw new Error(`biome format ${FILE} failed:\n${biome.stderr}`);
console.log(`wrote ${FILE} (import rules of ${LAYERS.flat().length} layers)`);
