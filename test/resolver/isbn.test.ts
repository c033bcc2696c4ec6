import { describe, expect, it } from "vitest";
import { compactIsbn, isValidGtin, isValidIsbn10, isValidIsbn13, toIsbn10, toIsbn13 } from "@/lib/catalog/isbn";
import { api } from "../support/api";
import { makeMember } from "../support/factories";

// Pairs checked by hand against the published check-digit rules.
const PAIRS: [string, string][] = [
  ["0140328726", "9780140328721"],
  ["080442957X", "9780804429573"],
  ["0306406152", "9780306406157"],
  ["0385472579", "9780385472579"],
  ["0743273567", "9780743273565"],
];

describe("ISBN check digits", () => {
  it.each(PAIRS)("%s ↔ %s", (isbn10, isbn13) => {
    expect(isValidIsbn10(isbn10)).toBe(true);
    expect(isValidIsbn13(isbn13)).toBe(true);
    expect(toIsbn13(isbn10)).toBe(isbn13);
    expect(toIsbn10(isbn13)).toBe(isbn10);
  });

  it("accepts the usual spellings", () => {
    for (const raw of [
      "ISBN 978-0-14-032872-1",
      "ISBN-13: 978 0 14 032872 1",
      "isbn:0-14-032872-6",
      "0-14-032872-6",
      "080442957x",
    ]) {
      expect(toIsbn13(raw), raw).toMatch(/^97[89]\d{10}$/);
    }
    expect(compactIsbn("ISBN-10: 0-8044-2957-x")).toBe("080442957X");
  });

  it("rejects wrong check digits and misplaced X", () => {
    for (const bad of ["0140328727", "9780140328722", "X140328726", "04X0328726", "9790140328721", "123456789"]) {
      expect(toIsbn13(bad), bad).toBeNull();
    }
  });

  it("has no ISBN-10 for 979 prefixes", () => {
    expect(isValidIsbn13("9791032305690")).toBe(true);
    expect(toIsbn10("9791032305690")).toBeNull();
  });

  it("checks GTIN/EAN/UPC with the same mod-10 rule", () => {
    expect(isValidGtin("4006381333931")).toBe(true);
    expect(isValidGtin("036000291452")).toBe(true);
    expect(isValidGtin("96385074")).toBe(true);
    expect(isValidGtin("4006381333932")).toBe(false);
  });

  it("answers 422 invalid_isbn on POST /resolve for a mistyped ISBN", async () => {
    const ada = await makeMember({ scopes: ["items:read"] });
    const response = await api("POST", "/resolve", { token: ada.token, body: { input: "ISBN 978-0-14-032872-2" } });
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([expect.objectContaining({ pointer: "/input", code: "invalid_isbn" })]);
  });
});
