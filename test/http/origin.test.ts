import { describe, expect, it } from "vitest";
import { originRelation, parseOrigin } from "@/lib/http/origin";

const relation = (origin: string | null, host = "pds.example", extra: Record<string, string> = {}) =>
  originRelation(new Headers({ host, ...extra, ...(origin === null ? {} : { origin }) }));

// An Origin is a scheme, a host and a port, nothing else (RFC 6454 §7); anything more is not this site.
describe("the Origin of a request, parsed strictly", () => {
  it.each([
    ["https://pds.example", "pds.example", "same"],
    ["http://pds.example", "pds.example", "same"],
    ["HTTPS://PDS.Example", "pds.example", "same"],
    ["https://pds.example", "PDS.EXAMPLE", "same"],
    ["https://pds.example:443", "pds.example", "same"],
    ["http://pds.example:80", "pds.example", "same"],
    ["https://pds.example", "pds.example:443", "same"],
    ["http://127.0.0.1:3200", "127.0.0.1:3200", "same"],
    ["http://[::1]:3000", "[::1]:3000", "same"],
    ["https://xn--bcher-kva.example", "xn--bcher-kva.example", "same"],
    ["https://bücher.example", "xn--bcher-kva.example", "same"],
    ["https://pds.example:8443", "pds.example", "cross"],
    ["https://pds.example", "pds.example:8443", "cross"],
    ["https://pds.example:80", "pds.example", "cross"],
    ["http://evil.example@pds.example", "pds.example", "cross"],
    ["http://user:pass@pds.example", "pds.example", "cross"],
    ["http://pds.example@evil.example", "pds.example", "cross"],
    ["https://pds.example/", "pds.example", "cross"],
    ["https://pds.example/settings", "pds.example", "cross"],
    ["https://pds.example?x=1", "pds.example", "cross"],
    ["https://pds.example#top", "pds.example", "cross"],
    ["https://pds.example\\@evil.example", "pds.example", "cross"],
    ["https://%70ds.example", "pds.example", "cross"],
    ["https://pds.example.", "pds.example", "cross"],
    ["https://pds.example.evil.example", "pds.example", "cross"],
    ["ftp://pds.example", "pds.example", "cross"],
    ["pds.example", "pds.example", "cross"],
    ["null", "pds.example", "cross"],
    ["::", "pds.example", "cross"],
    ["https://pds.example", "", "cross"],
  ])("Origin %s with Host %s is %s", (origin, host, expected) => {
    expect(relation(origin, host)).toBe(expected);
  });

  it("is absent without an Origin", () => {
    expect(relation(null)).toBe("absent");
  });

  it("compares with the forwarded host when a proxy gave one", () => {
    expect(relation("https://pds.example", "internal:3000", { "x-forwarded-host": "pds.example" })).toBe("same");
    expect(relation("http://evil.example@pds.example", "internal:3000", { "x-forwarded-host": "pds.example" })).toBe(
      "cross",
    );
  });

  it("answers the scheme, host and port of a valid Origin only", () => {
    expect(parseOrigin("HTTPS://PDS.example:443")).toEqual({ scheme: "https", host: "pds.example" });
    expect(parseOrigin("http://127.0.0.1:3200")).toEqual({ scheme: "http", host: "127.0.0.1:3200" });
    expect(parseOrigin("http://evil.example@pds.example")).toBeNull();
    expect(parseOrigin("https://pds.example/x")).toBeNull();
    expect(parseOrigin("null")).toBeNull();
    // Headers trims a field's surrounding spaces, as HTTP does; the parser itself takes none.
    expect(parseOrigin(" https://pds.example")).toBeNull();
  });
});
