import { describe, expect, it } from "vitest";
import { capabilityByTool } from "@/registry/capabilities";
import { toolDefinition } from "@/lib/surfaces/tools";
import { type FormField, formFields, inputFromForm } from "@/lib/web/schema-form";

const fieldsOf = (tool: string) => {
  const capability = capabilityByTool.get(tool);
  if (!capability) throw new Error(`no tool ${tool}`);
  return formFields(toolDefinition(capability).inputSchema);
};

describe("the tool console's form, generated from a tool's input schema", () => {
  it("gives each property a field of the right kind", () => {
    const fields = Object.fromEntries(fieldsOf("collections_create").map((field) => [field.name, field]));
    expect(fields.name).toMatchObject({ kind: "string", required: true });
    expect(fields.type).toMatchObject({
      kind: "enum",
      required: true,
      options: ["music", "film", "books", "articles", "places", "products"],
    });
    expect(fields.visibility).toMatchObject({ kind: "enum", required: false });
    expect(fieldsOf("collections_list").find((field) => field.name === "limit")).toMatchObject({ kind: "number" });
  });

  it("builds the input: blanks left out, numbers as numbers, JSON parsed, bad JSON named", () => {
    const fields: FormField[] = [
      { name: "title", kind: "string", required: true, description: "", options: [], nullable: false },
      { name: "rating", kind: "number", required: false, description: "", options: [], nullable: true },
      { name: "tags", kind: "json", required: false, description: "", options: [], nullable: false },
      { name: "done", kind: "boolean", required: false, description: "", options: [], nullable: false },
      { name: "note", kind: "string", required: false, description: "", options: [], nullable: true },
    ];
    expect(inputFromForm(fields, { title: "A", rating: "4", tags: '["x"]', done: "false", note: "" })).toEqual({
      ok: true,
      input: { title: "A", rating: 4, tags: ["x"], done: false },
    });
    expect(inputFromForm(fields, { title: "A", note: "null" })).toEqual({
      ok: true,
      input: { title: "A", note: null },
    });
    expect(inputFromForm(fields, { title: "A", tags: "[oops" })).toEqual({
      ok: false,
      field: "tags",
      message: "tags: not valid JSON.",
    });
  });
});
