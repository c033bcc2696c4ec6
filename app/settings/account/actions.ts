"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { deleteAccountWithPassword } from "@/lib/web/account-delete";
import { clientAddress } from "@/lib/http/client-address";
import { isSameOrigin } from "@/lib/web/csrf";
import { type FormState, NOT_SAME_ORIGIN } from "@/lib/web/form-state";
import { requireMember, SESSION_COOKIE } from "@/lib/web/session";

export async function deleteAccountAction(_previous: FormState, form: FormData): Promise<FormState> {
  const h = await headers();
  if (!isSameOrigin(h)) return NOT_SAME_ORIGIN;
  const member = await requireMember();
  const result = await deleteAccountWithPassword(member.id, String(form.get("password") ?? ""), clientAddress(h));
  if (!result.ok) return { error: result.error };
  // The session row went with the member; the cookie goes too.
  (await cookies()).delete(SESSION_COOKIE);
  redirect("/sign-in?deleted=1");
}
