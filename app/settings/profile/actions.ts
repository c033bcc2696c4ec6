"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { isSameOrigin } from "@/lib/web/csrf";
import type { ProfileState } from "@/lib/web/action-states";
import { NOT_SAME_ORIGIN } from "@/lib/web/form-state";
import { profileInputFromForm } from "@/lib/web/profile-form";
import { memberCaller, requireMember } from "@/lib/web/session";
import { callAsSession, problemToForm } from "@/lib/web/session-call";

/** The same profile_update capability the API and the tools use, with the session as principal. */
export async function updateProfileAction(_previous: ProfileState, form: FormData): Promise<ProfileState> {
  const requestHeaders = await headers();
  if (!isSameOrigin(requestHeaders)) return NOT_SAME_ORIGIN;
  const member = await requireMember();
  const values = profileInputFromForm(form);
  const result = await callAsSession(memberCaller(member), "profile_update", values, requestHeaders);
  if (!result.ok) return { ...problemToForm(result.problem), values };
  revalidatePath("/settings", "layout");
  return { notice: "Profile saved." };
}
