import { describe, expect, it } from "vitest";
import { isLocalHost, isSameOrigin } from "@/lib/web/csrf";

const h = (init: Record<string, string>) => new Headers(init);

describe("the same-origin check of settings forms", () => {
  it("accepts an Origin naming this host", () => {
    expect(isSameOrigin(h({ host: "pds.example", origin: "https://pds.example" }))).toBe(true);
    expect(isSameOrigin(h({ host: "127.0.0.1:3200", origin: "http://127.0.0.1:3200" }))).toBe(true);
    expect(
      isSameOrigin(h({ host: "internal:3000", "x-forwarded-host": "pds.example", origin: "https://pds.example" })),
    ).toBe(true);
  });

  it("refuses another site, an opaque origin, a bad Origin and no Origin without Sec-Fetch-Site", () => {
    expect(isSameOrigin(h({ host: "pds.example", origin: "https://evil.example" }))).toBe(false);
    expect(isSameOrigin(h({ host: "pds.example", origin: "https://pds.example.evil.example" }))).toBe(false);
    expect(isSameOrigin(h({ host: "pds.example", origin: "null" }))).toBe(false);
    expect(isSameOrigin(h({ host: "pds.example", origin: "::" }))).toBe(false);
    expect(isSameOrigin(h({ host: "pds.example" }))).toBe(false);
    expect(isSameOrigin(h({ host: "pds.example", "sec-fetch-site": "cross-site" }))).toBe(false);
    expect(isSameOrigin(h({ host: "pds.example", "sec-fetch-site": "same-origin" }))).toBe(true);
  });

  it("marks cookies Secure everywhere but localhost", () => {
    expect(isLocalHost(h({ host: "localhost:3000" }))).toBe(true);
    expect(isLocalHost(h({ host: "127.0.0.1:3200" }))).toBe(true);
    expect(isLocalHost(h({ host: "[::1]:3000" }))).toBe(true);
    expect(isLocalHost(h({ host: "pds.example" }))).toBe(false);
    expect(isLocalHost(h({ host: "localhost.evil.example" }))).toBe(false);
  });
});
