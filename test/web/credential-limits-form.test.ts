import { describe, expect, it } from "vitest";
import { type LimitChoices, limitChoices } from "@/lib/domain/credential-limit-choices";
import { parseCredentialLimits } from "@/lib/web/credential-limits-form";
import { collectionWithItem } from "../auth/credential-limits-support";
import { makeMember } from "../support/factories";

const CHOICES: LimitChoices = {
  collections: [
    { id: "11111111-1111-4111-8111-111111111111", name: "Road trip", type: "music" },
    { id: "22222222-2222-4222-8222-222222222222", name: "Reading", type: "books" },
  ],
  tools: [
    { name: "items_list", summary: "List items", writes: false },
    { name: "items_delete", summary: "Delete an item", writes: true },
  ],
};

const form = (entries: [string, string][]) => {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
};

describe("parseCredentialLimits", () => {
  it("answers null when nothing is limited", () => {
    expect(parseCredentialLimits(form([["name", "x"]]), CHOICES)).toEqual({ ok: true, limits: null });
  });

  it("reads every field, repeated ones as lists without duplicates", () => {
    const parsed = parseCredentialLimits(
      form([
        ["collections", "11111111-1111-4111-8111-111111111111"],
        ["collections", "11111111-1111-4111-8111-111111111111"],
        ["read_only", "on"],
        ["confirm_destructive", "on"],
        ["tools", "items_list"],
        ["tools", "items_delete"],
      ]),
      CHOICES,
    );
    expect(parsed).toEqual({
      ok: true,
      limits: {
        collections: ["11111111-1111-4111-8111-111111111111"],
        readOnly: true,
        confirmDestructive: true,
        tools: ["items_list", "items_delete"],
      },
    });
  });

  it("refuses a collection that is not one of the member's, and an unknown tool, naming the field", () => {
    const foreign = parseCredentialLimits(form([["collections", "33333333-3333-4333-8333-333333333333"]]), CHOICES);
    expect(foreign).toMatchObject({
      ok: false,
      field: "collections",
      error: expect.stringContaining("Unknown collection"),
    });
    const unknown = parseCredentialLimits(form([["tools", "drop_everything"]]), CHOICES);
    expect(unknown).toMatchObject({ ok: false, field: "tools", error: "Unknown tool: drop_everything." });
  });

  it("offers the member's own collections only, never another member's public one", async () => {
    const ada = await makeMember();
    const bob = await makeMember();
    const own = await collectionWithItem(ada, "Mine");
    await collectionWithItem(bob, "Bob's public", "public");
    const choices = await limitChoices(ada.id);
    expect(choices.collections.map((c) => c.id)).toEqual([own.collectionId]);
    expect(choices.tools.map((t) => t.name)).toContain("items_delete");
  });
});
