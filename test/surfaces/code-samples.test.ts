import fs from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/surfaces/openapi";
import { capabilities } from "@/registry/capabilities";

type Json = Record<string, unknown>;
type Sample = { lang: string; label: string; source: string };

const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, Json>>; info: { description: string } };
const samplesOf = (method: string, route: string) =>
  (doc.paths[route]?.[method.toLowerCase()]?.["x-codeSamples"] ?? []) as Sample[];
const allSamples = capabilities.flatMap((c) => (c.http ? samplesOf(c.http.method, c.http.path) : []));

/** This repository's own packages (clients/*): none is published, so no sample may need one. */
const unpublished = fs
  .readdirSync("clients", { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && fs.existsSync(path.join("clients", entry.name, "package.json")))
  .map(
    (entry) =>
      JSON.parse(fs.readFileSync(path.join("clients", entry.name, "package.json"), "utf8")) as {
        name: string;
        private?: boolean;
      },
  )
  .filter((pkg) => pkg.private);

/** What a sample imports: JavaScript import/require specifiers, Python import/from modules. */
function imports(sample: Sample): string[] {
  const js = [
    ...sample.source.matchAll(
      /\bimport\s[^'"]*?from\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']|\brequire\(\s*["']([^"']+)["']/g,
    ),
  ].map((m) => m[1] ?? m[2] ?? m[3] ?? "");
  if (sample.lang !== "Python") return js;
  return [...sample.source.matchAll(/^(?:import|from)\s+([\w.]+)/gm)].map((m) => m[1] ?? "");
}

describe("x-codeSamples of the reference", () => {
  it("every REST operation has curl, JavaScript (fetch) and Python, each naming its own method and path", () => {
    for (const capability of capabilities) {
      const http = capability.http;
      if (!http) continue;
      const samples = samplesOf(http.method, http.path);
      expect(
        samples.map((sample) => sample.label),
        capability.tool,
      ).toEqual(["curl", "JavaScript (fetch)", "Python (requests)"]);
      const [curl, js, python] = samples;
      const route = http.path.replace(/\{[^}]+\}/g, "[0-9a-f-]{36}");
      expect(curl?.source).toMatch(new RegExp(`^curl -X ${http.method} "\\$PDS_URL/api/v1${route}[?"]`));
      expect(js?.source).toMatch(new RegExp(`fetch\\(\`\\$\\{process.env.PDS_URL\\}/api/v1${route}[?\`]`));
      expect(js?.source).toContain(`method: "${http.method}"`);
      expect(python?.source).toContain(`requests.request("${http.method}"`);
      if (capability.creates) for (const sample of samples) expect(sample.source).toContain("Idempotency-Key");
      // Python spells JSON's literals its own way.
      expect(python?.source).not.toMatch(/json=[^\n]*\b(true|false|null)\b/);
    }
  });

  it("no sample imports a package that is not published: JavaScript only Node's own modules, Python only its standard library and requests", () => {
    expect(unpublished.map((pkg) => pkg.name)).toContain("@personal-data-service/client");
    const python = new Set(["os", "uuid", "json", "requests"]);
    for (const sample of allSamples) {
      for (const pkg of unpublished) expect(sample.source, sample.label).not.toContain(pkg.name);
      for (const specifier of imports(sample)) {
        if (sample.lang === "Python") expect(python.has(specifier.split(".")[0] ?? ""), specifier).toBe(true);
        else expect(specifier.startsWith("node:") && builtinModules.includes(specifier.slice(5)), specifier).toBe(true);
      }
    }
    // The guide's own snippets too.
    for (const pkg of unpublished) expect(doc.info.description).not.toMatch(new RegExp(`from ["']${pkg.name}`));
    expect(allSamples.some((sample) => imports(sample).length > 0)).toBe(true);
  });
});
