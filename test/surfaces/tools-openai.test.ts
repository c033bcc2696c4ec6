import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fromOpenAiArguments, toOpenAiStrict } from "@/lib/surfaces/tools-openai";

const schemaOf = (zod: z.ZodType) => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(zod, { io: "input" }) as Record<string, unknown>;
  return rest;
};

const input = schemaOf(
  z.strictObject({
    name: z.string().min(1).max(20).describe("Name."),
    rating: z.int().min(1).max(5).nullable().optional().describe("Rating; null clears it."),
    kind: z.enum(["a", "b"]).optional(),
    mode: z.literal("fast"),
    link: z.url().optional(),
    place: z.strictObject({ lat: z.number(), label: z.string().optional() }).optional(),
  }),
);

describe("OpenAI strict conversion", () => {
  it("requires every property, makes optional ones nullable and closes every object", () => {
    const strict = toOpenAiStrict(input) as any;
    expect(strict.required).toEqual(["name", "rating", "kind", "mode", "link", "place"]);
    expect(strict.additionalProperties).toBe(false);
    expect(strict.properties.name).toEqual({
      type: "string",
      description: "Name. Constraints: minLength 1, maxLength 20.",
    });
    // Already nullable: kept as is (null keeps its meaning, "clear it").
    expect(strict.properties.rating.anyOf).toEqual([{ type: "integer", minimum: 1, maximum: 5 }, { type: "null" }]);
    expect(strict.properties.kind.anyOf).toEqual([{ type: "string", enum: ["a", "b"] }, { type: "null" }]);
    expect(strict.properties.mode).toEqual({ type: "string", enum: ["fast"] });
    expect(strict.properties.link.type).toEqual(["string", "null"]);
    expect(strict.properties.link.format).toBeUndefined();
    expect(strict.properties.place).toMatchObject({
      type: ["object", "null"],
      required: ["lat", "label"],
      additionalProperties: false,
    });
    expect(strict.properties.place.properties.label.type).toEqual(["string", "null"]);
  });

  it("reads null as 'left out' only where the service would not accept null", () => {
    const args = { name: "x", rating: null, kind: null, mode: "fast", link: null, place: { lat: 1, label: null } };
    expect(fromOpenAiArguments(input, args)).toEqual({ name: "x", rating: null, mode: "fast", place: { lat: 1 } });
    expect(fromOpenAiArguments(input, "not an object")).toBe("not an object");
  });
});
