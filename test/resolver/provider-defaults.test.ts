import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { offlineEnv } from "@/bench/config";
import { enabledProviders, providerSettings } from "@/lib/catalog/providers/config";
import { useEnv } from "../limits/test-setup";
import { suiteEnv } from "../support/suite-env";

describe("resolver providers by default", () => {
  const setEnv = useEnv();

  it("turns the keyless providers on when RESOLVER_PROVIDERS is unset or empty, Nominatim only with a contact", () => {
    const keyless = ["html", "itunes", "musicbrainz", "odesli", "openlibrary", "wikipedia"];
    for (const value of [undefined, "", "default"]) {
      setEnv({ RESOLVER_PROVIDERS: value, RESOLVER_CONTACT: undefined });
      expect([...enabledProviders()].sort(), String(value)).toEqual(keyless);
    }
    setEnv({ RESOLVER_PROVIDERS: undefined, RESOLVER_CONTACT: "ops@example.test", RESOLVER_USER_AGENT: undefined });
    expect([...enabledProviders()].sort()).toEqual([...keyless, "nominatim"].sort());
    expect(providerSettings("nominatim").userAgent).toContain("ops@example.test");
  });

  it("switches every provider off with RESOLVER_PROVIDERS=off, and picks from a list", () => {
    setEnv({ RESOLVER_PROVIDERS: "off", RESOLVER_CONTACT: "ops@example.test" });
    expect(enabledProviders().size).toBe(0);
    setEnv({ RESOLVER_PROVIDERS: "none" });
    expect(enabledProviders().size).toBe(0);
    setEnv({ RESOLVER_PROVIDERS: "itunes, openlibrary" });
    expect([...enabledProviders()].sort()).toEqual(["itunes", "openlibrary"]);
  });

  it("keeps the test suites, e2e and the bench off the internet", () => {
    expect(suiteEnv("1").RESOLVER_PROVIDERS).toBe("off");
    expect(offlineEnv.RESOLVER_PROVIDERS).toBe("off");
    expect(fs.readFileSync("playwright.config.ts", "utf8")).toMatch(/RESOLVER_PROVIDERS: "off"/);
  });
});
