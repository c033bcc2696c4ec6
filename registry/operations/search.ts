import { z } from "zod";
import { defineOperation } from "../define.ts";
import { pageOf, pageQuery } from "../pagination.ts";
import { domainSchema, searchHitSchema } from "./catalog-entry.ts";

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
    ...pageQuery,
  }),
  output: pageOf(searchHitSchema),
  rules: [
    "On REST the query is the parameter q (GET /search?q=…); tools take the same value as query.",
    "Ranking: trigram similarity (typo-tolerant) plus full-text rank plus a bonus when the whole title, or its start, equals the query; ties by id.",
    'Accents and case are ignored on both sides (unaccent + lower), so "beyonce" finds "Beyoncé".',
    "Pages follow the list convention: next_cursor (opaque, encoding score and id) as ?after=, limit 1–200, default 50.",
  ],
  errors: [
    {
      status: 422,
      code: "invalid_request",
      when: "q is missing or empty, domain is not one of the six, or the cursor is not one we issued.",
    },
  ],
});
