"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { endSessionById } from "@/lib/auth/sessions";
import { isSameOrigin } from "@/lib/web/csrf";
import { type FormState, NOT_SAME_ORIGIN } from "@/lib/web/form-state";
import { changeBrowserPassword, requireMember } from "@/lib/web/session";

export async function changePasswordAction(_previous: FormState, form: FormData): Promise<FormState> {
  if (!isSameOrigin(await headers())) return NOT_SAME_ORIGIN;
  const member = await requireMember();
  const next = String(form.get("new_password") ?? "");
  if (next !== String(form.get("confirm_password") ?? "")) return { error: "The two new passwords differ." };
  const result = await changeBrowserPassword(member, String(form.get("current_password") ?? ""), next);
  revalidatePath("/settings/security");
  return result.ok ? { notice: "Password changed." } : { error: result.error };
}

export async function endSessionAction(form: FormData): Promise<void> {
  if (!isSameOrigin(await headers())) return;
  const member = await requireMember();
  // Scoped to this member: another member's session id ends nothing.
  await endSessionById(member.id, String(form.get("id") ?? ""));
  revalidatePath("/settings/security");
}
