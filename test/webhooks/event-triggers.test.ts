import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { EVENT_KINDS } from "@/registry/events";
import { resources } from "@/registry/index";
import { EVENT_TRIGGERS_FILE, eventTriggersSql } from "@/lib/webhook-delivery/event-triggers-sql";

describe("webhook event triggers", () => {
  it("are the migration generated from the registry (run node scripts/build-event-triggers.ts when this fails)", () => {
    expect(fs.readFileSync(EVENT_TRIGGERS_FILE, "utf8")).toBe(eventTriggersSql());
  });

  it("cover every event a resource declares, each named <resource>.<verb>", () => {
    const declared = resources.flatMap((resource) => resource.events ?? []);
    expect(EVENT_KINDS.map((kind) => kind.type)).toEqual(declared);
    for (const type of declared) expect(type).toMatch(/^[a-z_]+\.[a-z_]+$/);
  });
});
