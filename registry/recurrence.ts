import { z } from "zod";

/**
 * The RRULE subset todos accept: FREQ=DAILY|WEEKLY|MONTHLY, optional INTERVAL (1–999) and, with
 * WEEKLY only, BYDAY (MO..SU, no ordinals). Uppercase, parts separated by ";", each key once.
 * The store checks the same rule with the same messages (app_private.recurrence_problem).
 */
const DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;
const FREQS = ["DAILY", "WEEKLY", "MONTHLY"];

/** What is wrong with a rule, in words for the client; null when it is inside the subset. */
export function recurrenceProblem(rule: string): string | null {
  if (rule === "") return "recurrence must not be empty (send null for none)";
  const seen = new Set<string>();
  let freq: string | undefined;
  let byday = false;
  for (const part of rule.split(";")) {
    if (!/^[A-Z]+=[^=;]+$/.test(part)) return `recurrence part "${part}" is not KEY=VALUE`;
    const [key = "", value = ""] = part.split("=");
    if (seen.has(key)) return `recurrence repeats ${key}`;
    seen.add(key);
    if (key === "FREQ") {
      if (!FREQS.includes(value)) return `FREQ=${value} is not supported: use DAILY, WEEKLY or MONTHLY`;
      freq = value;
    } else if (key === "INTERVAL") {
      if (!/^[1-9][0-9]{0,2}$/.test(value)) return "INTERVAL must be a whole number from 1 to 999";
    } else if (key === "BYDAY") {
      if (!value.split(",").every((day) => (DAYS as readonly string[]).includes(day))) {
        return "BYDAY must list days as MO,TU,WE,TH,FR,SA,SU (no ordinals)";
      }
      byday = true;
    } else {
      return `${key} is not supported: only FREQ, INTERVAL and BYDAY`;
    }
  }
  if (!freq) return "recurrence needs FREQ";
  if (byday && freq !== "WEEKLY") return "BYDAY is supported only with FREQ=WEEKLY";
  return null;
}

export const recurrenceSchema = z
  .string()
  .max(200)
  .superRefine((rule, ctx) => {
    const problem = recurrenceProblem(rule);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
