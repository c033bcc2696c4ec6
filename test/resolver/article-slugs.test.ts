import { describe, expect, it } from "vitest";
import { recogniseUrl } from "@/lib/catalog/recognise";

/** Offline, an article is titled from its URL's slug only when the slug is words (npm run eval:resolver's misses). */
const titleOf = (url: string) => recogniseUrl(new URL(url)).hints.title;

describe("article titles from URL slugs", () => {
  it("takes no title from an id-like slug (a BBC article id is not a headline)", () => {
    expect(titleOf("https://www.bbc.com/news/articles/cd605e48q1vo")).toBeUndefined();
    expect(titleOf("https://example.com/p/x7k2m9q4")).toBeUndefined();
  });

  it("takes no title from a section name before a numeric id", () => {
    expect(titleOf("https://ultra4kfilms.com/archives/59")).toBeUndefined();
    expect(titleOf("https://example.com/news/123456")).toBeUndefined();
  });

  it("drops a numeric id a site appends to the slug, but keeps a year that is part of it", () => {
    expect(
      titleOf(
        "https://forums.macrumors.com/threads/apple-in-2023-the-biggest-news-stories-and-surprises-of-the-year.2414830/",
      ),
    ).toBe("Apple in 2023 the Biggest News Stories and Surprises of the Year");
    expect(titleOf("https://www.bbc.co.uk/news/technology-16646023")).toBe("Technology");
    expect(titleOf("https://example.com/2024/05/why-we-sleep.html")).toBe("Why We Sleep");
    expect(titleOf("https://paulgraham.com/avg.html")).toBe("Avg");
  });
});
