import { z } from "zod";
import { defineDirective } from "../define.ts";

export const listen = defineDirective({
  name: "listen",
  description:
    "Ask the member's browser to listen on the microphone and send what it hears as the next message. The browser asks the member for permission first.",
  input: z.strictObject({
    lang: z
      .string()
      .regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/, "a BCP 47 language tag such as en-US")
      .optional()
      .describe("BCP 47 language tag to recognise, e.g. en-US; the browser's language when left out."),
  }),
  directive: z
    .strictObject({
      type: z.literal("start_listening").describe("Always start_listening."),
      lang: z.string().nullable().describe("BCP 47 language tag, or null for the browser's language."),
    })
    .describe("Start speech input: the browser asks for the microphone, then listens."),
  scope: "items:read",
});
