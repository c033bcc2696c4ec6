import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/surfaces/openapi";

type Json = Record<string, unknown>;

/** Every parameter of the document, $refs to components/parameters resolved. */
function allParameters(doc: Json): Json[] {
  const components = ((doc.components as Json).parameters ?? {}) as Record<string, Json>;
  const out: Json[] = [];
  for (const item of Object.values(doc.paths as Record<string, Json>)) {
    for (const operation of Object.values(item) as Json[]) {
      for (const p of (operation.parameters ?? []) as Json[]) {
        const ref = typeof p.$ref === "string" ? components[p.$ref.split("/").pop() ?? ""] : p;
        if (ref) out.push(ref);
      }
    }
  }
  return out;
}

describe("the reference's try it", () => {
  it("leaves every optional query parameter that has a value to show unticked (x-disabled)", () => {
    const params = allParameters(buildOpenApiDocument() as Json).filter((p) => p.in === "query" && !p.required);
    const fillable = params.filter((p) => {
      const schema = (p.schema ?? {}) as Json;
      return "default" in schema || "enum" in schema || "examples" in schema || "example" in schema;
    });
    expect(fillable.map((p) => p.name)).toContain("limit");
    for (const p of fillable) {
      const examples = Object.values((p.examples ?? {}) as Record<string, Json>);
      expect(examples[0]?.["x-disabled"], `${String(p.name)} would be sent unasked`).toBe(true);
    }
    // Required ones are never marked.
    const required = allParameters(buildOpenApiDocument() as Json).filter((p) => p.required);
    for (const p of required) expect(JSON.stringify(p.examples ?? {})).not.toContain("x-disabled");
  });
});
