"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { isUuid } from "@/registry/fields";
import { revokeGrant } from "@/lib/auth/oauth/grants";
import { isSameOrigin } from "@/lib/web/csrf";
import { requireMember } from "@/lib/web/session";

/** The second step of revoking a connected app (the page asks first, for ?revoke=<id>). */
export async function revokeGrantAction(form: FormData): Promise<void> {
  if (!isSameOrigin(await headers())) return;
  const member = await requireMember();
  // Scoped to this member: another member's grant id revokes nothing.
  const id = String(form.get("id") ?? "");
  if (isUuid(id)) await revokeGrant(id, member.id);
  revalidatePath("/settings/connected-apps");
  redirect("/settings/connected-apps");
}
