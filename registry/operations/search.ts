import { z } from "zod";
import { defineOperation } from "../define.ts";
import { pageOf, pageQuery } from "../pagination.ts";
import { domainSchema, searchHitSchema } from "./catalog-entry.ts";

// The list convention of capabilities.ts (pageQuery/pageOf), restated here because capabilities.ts
// imports this file through registry/index.ts and cannot be imported back without a cycle.
const SEARCH_MAX_PAGE = 200;
const SEARCH_DEFAULT_PAGE = 50;

export const search = defineOperation({
  name: "search",
  summary: "Search the catalog",
  description:
    "Search the shared catalog by name across every collection type: titles, subtitles and creators, " +
    "accent- and case-insensitive and tolerant of typos, best match first, one page at a time.",
  method: "GET",
  path: "/search",
  scope: "items:read",
  queryAliases: { q: "query" },
  input: z.strictObject({
    query: z.string().trim().min(1).max(200).describe("What to look for. On REST it is sent as ?q=."),
    domain: domainSchema.optional().describe("Only entries of this collection type."),
    after: pageQuery.after,
    limit: z
      .int()
      .min(1)
      .max(SEARCH_MAX_PAGE)
      .optional()
      .describe(`Page size, 1–${SEARCH_MAX_PAGE}, default ${SEARCH_DEFAULT_PAGE}.`),
  }),
  output: pageOf(searchHitSchema),
  rules: [
    "On REST the query is the parameter q (GET /search?q=…); tools take the same value as query.",
    "Ranking: trigram similarity (typo-tolerant) plus full-text rank plus a bonus when the whole title, or its start, equals the query; ties by id.",
    "Accents and case are ignored on both sides (unaccent + lower), so \"beyonce\" finds \"Beyoncé\".",
    "Pages follow the list convention: next_cursor (opaque, encoding score and id) as ?after=, limit 1–200, default 50.",
  ],
  errors: [{ status: 422, code: "invalid_request", when: "q is missing or empty, domain is not one of the six, or the cursor is not one we issued." }],
});
