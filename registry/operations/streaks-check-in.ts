import { z } from "zod";
import { defineOperation } from "../define.ts";
import { CHECK_IN_MAX_DAYS_BACK } from "../limits.ts";
import { recordSchema } from "../resource-schemas.ts";
import { streaks } from "../resources/streaks.ts";

const streakRecord = recordSchema(streaks).describe("The streak after the check-in, with its derived counts.");

export const checkInRecord = z
  .object({
    id: z.uuid().describe("Identifier of the check-in."),
    streak_id: z.uuid().describe("The streak it belongs to."),
    day: z.iso.date().describe("The day it counts for, in the streak's time zone (YYYY-MM-DD)."),
    note: z.string().describe("The note sent with the first check-in of that day."),
    created_at: z.iso.datetime({ offset: true }).describe("When it was recorded (RFC 3339)."),
  })
  .describe("One check-in. Append-only: never changed or removed except with its streak.");

export const streaksCheckIn = defineOperation({
  name: "streaks_check_in",
  summary: "Check in on a streak",
  description:
    "Record a check-in on one of the member's streaks: today in the streak's time zone, or a given day " +
    `up to ${CHECK_IN_MAX_DAYS_BACK} days back. Answers the check-in and the streak with its recomputed counts.`,
  method: "POST",
  path: "/streaks/{id}/check-in",
  scope: "streaks:write",
  pathParams: ["id"],
  creates: true,
  input: z.strictObject({
    id: z.uuid().describe("Identifier of the streak."),
    date: z.iso
      .date()
      .optional()
      .describe(
        `The day to record (YYYY-MM-DD), at most ${CHECK_IN_MAX_DAYS_BACK} days back. Default: today in the streak's time zone.`,
      ),
    note: z.string().max(1000).optional().describe("A short note kept with the check-in."),
  }),
  output: z.object({
    check_in: checkInRecord,
    streak: streakRecord,
    created: z
      .boolean()
      .describe("true when this call recorded the day (201); false when it was already recorded (200)."),
  }),
  rules: [
    `The day defaults to today in the streak's time zone; a past day may be given up to ${CHECK_IN_MAX_DAYS_BACK} days back; a future day is 422.`,
    "A second check-in for the same day answers 200 with the existing check-in (and its original note) and records nothing.",
    "current_count is the run of consecutive days ending today or yesterday (0 once a day is missed); longest_count is the longest run ever; both are recomputed from the check-ins, so a late check-in that fills a gap joins the runs on both sides.",
    "Check-ins are append-only and reachable only through this operation: the check-in table is not a resource and members have no write access to it.",
  ],
  errors: [
    { status: 404, code: "not_found", when: "The streak does not exist or is not the member's." },
    {
      status: 422,
      code: "invalid_request",
      when: `The day is in the future or more than ${CHECK_IN_MAX_DAYS_BACK} days back (reason names it).`,
    },
  ],
});
