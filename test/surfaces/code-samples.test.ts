import { describe, expect, it } from "vitest";
import { capabilities } from "@/registry/capabilities";
import { buildOpenApiDocument } from "@/lib/surfaces/openapi";

type Json = Record<string, unknown>;
type Sample = { lang: string; label: string; source: string };

describe("x-codeSamples of the reference", () => {
  const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, Json>> };

  it("every REST operation has curl, the typed client and Python, each naming its own method and path", () => {
    for (const capability of capabilities) {
      const http = capability.http;
      if (!http) continue;
      const operation = doc.paths[http.path]?.[http.method.toLowerCase()];
      const samples = operation?.["x-codeSamples"] as Sample[] | undefined;
      expect(
        samples?.map((sample) => sample.lang),
        capability.tool,
      ).toEqual(["Shell", "JavaScript", "Python"]);
      const [curl, js, python] = samples ?? [];
      expect(curl?.source).toMatch(new RegExp(`^curl -X ${http.method} "\\$PDS_URL/api/v1/`));
      expect(js?.source).toContain(`pds.${http.method}("${http.path}"`);
      expect(js?.source).toContain('from "@personal-data-service/client"');
      expect(python?.source).toContain(`requests.request("${http.method}"`);
      if (capability.creates) expect(curl?.source).toContain("Idempotency-Key");
      // Python spells JSON's literals its own way.
      expect(python?.source).not.toMatch(/json=[^\n]*\b(true|false|null)\b/);
    }
  });
});
