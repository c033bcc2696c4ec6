"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { isSameOrigin } from "@/lib/web/csrf";
import { type FormState, NOT_SAME_ORIGIN } from "@/lib/web/form-state";
import { callAsSession, problemToForm } from "@/lib/web/session-call";
import { memberCaller, requireMember } from "@/lib/web/session";

/** Undo from the activity page: the registry's activity_undo, as the member's session (attributed to the member). */
export async function undoAction(_previous: FormState, form: FormData): Promise<FormState> {
  const requestHeaders = await headers();
  if (!isSameOrigin(requestHeaders)) return NOT_SAME_ORIGIN;
  const member = await requireMember();
  const result = await callAsSession(
    memberCaller(member),
    "activity_undo",
    { activity_id: String(form.get("id") ?? "") },
    requestHeaders,
  );
  if (!result.ok) {
    const { error, fields } = problemToForm(result.problem);
    const changed = Object.values(fields);
    return { error: changed.length ? `${error} ${changed.join(" ")}` : error };
  }
  revalidatePath("/settings/activity");
  const restored = (result.body as { restored: string[] }).restored.length;
  return { notice: `Undone: ${restored} record${restored === 1 ? "" : "s"} put back as they were.` };
}
