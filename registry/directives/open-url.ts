import { z } from "zod";
import { defineDirective } from "../define.ts";

export const openUrl = defineDirective({
  name: "open_url",
  description: "Open a web page in the member's browser (a new tab). Only http and https links are accepted.",
  input: z.strictObject({
    url: z
      .url({ protocol: /^https?$/, hostname: z.regexes.domain })
      .max(2000)
      .describe("The page to open, http or https."),
  }),
  directive: z
    .strictObject({
      type: z.literal("open_url").describe("Always open_url."),
      url: z.url().describe("The page to open."),
    })
    .describe("Open a page: the browser opens url in a new tab."),
  scope: "items:read",
});
