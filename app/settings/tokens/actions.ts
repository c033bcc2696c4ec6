"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { isUuid } from "@/registry/fields";
import { renameToken, revokeToken } from "@/lib/auth/tokens";
import { requestOrigin } from "@/lib/http/origin";
import { isSameOrigin } from "@/lib/web/csrf";
import { NOT_SAME_ORIGIN } from "@/lib/web/form-state";
import { requireMember } from "@/lib/web/session";
import type { CreateTokenState } from "@/lib/web/action-states";
import { createTokenFromForm, validateTokenName } from "@/lib/web/token-form";
import { tokenSnippets } from "@/lib/web/token-snippets";

/** The origin the browser used, for the snippets on the "created" card. */
export async function createTokenAction(_previous: CreateTokenState, form: FormData): Promise<CreateTokenState> {
  const h = await headers();
  if (!isSameOrigin(h)) return { ok: false, error: NOT_SAME_ORIGIN.error ?? "" };
  const member = await requireMember();
  const result = await createTokenFromForm(member.id, form);
  if (!result.ok) return result;
  revalidatePath("/settings/tokens");
  return { ...result, snippets: tokenSnippets(requestOrigin(h), result.token, result.scopes) };
}

/** The second step of revoking (the first is the confirmation the page shows for ?revoke=<id>). */
export async function revokeTokenAction(form: FormData): Promise<void> {
  if (!isSameOrigin(await headers())) return;
  const member = await requireMember();
  // Scoped to this member: another member's token id revokes nothing.
  const id = String(form.get("id") ?? "");
  if (isUuid(id)) await revokeToken(id, member.id);
  revalidatePath("/settings/tokens");
  redirect("/settings/tokens");
}

export async function renameTokenAction(form: FormData): Promise<void> {
  if (!isSameOrigin(await headers())) return;
  const member = await requireMember();
  const id = String(form.get("id") ?? "");
  const name = validateTokenName(form.get("name"));
  if (isUuid(id) && name) await renameToken(id, member.id, name);
  revalidatePath("/settings/tokens");
}
