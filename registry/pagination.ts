import { z } from "zod";

/** The list convention every paged capability shares (resources, operations such as a delivery log). */
export const MAX_PAGE_SIZE = 200;
export const DEFAULT_PAGE_SIZE = 50;

export const pageQuery = {
  after: z.string().min(1).max(500).optional().describe("Cursor from next_cursor of the previous page."),
  // Not z.coerce: Number() would take "0x10", "1e2" or "" as a page size. REST's query strings
  // become numbers in lib/surfaces/rest.ts, and only when they are plain decimal digits.
  limit: z
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .optional()
    .describe(`Page size, 1–${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE}.`),
};

const pages = new WeakSet<z.ZodType>();

export const pageOf = (record: z.ZodType) => {
  const page = z.object({
    data: z.array(record),
    has_more: z.boolean().describe("Whether another page follows."),
    next_cursor: z.string().nullable().describe("Pass as ?after= to get the next page; null on the last page."),
  });
  pages.add(page);
  return page;
};

/** Whether a schema is a page of the list convention (made by pageOf). */
export const isPage = (schema: z.ZodType): boolean => pages.has(schema);
