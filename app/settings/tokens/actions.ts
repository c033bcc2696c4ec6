"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { revokeToken } from "@/lib/auth/tokens";
import { isSameOrigin } from "@/lib/web/csrf";
import { NOT_SAME_ORIGIN } from "@/lib/web/form-state";
import { requireMember } from "@/lib/web/session";
import { createTokenFromForm, type TokenFormResult } from "@/lib/web/token-form";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type CreateTokenState = TokenFormResult | { ok?: undefined };

export async function createTokenAction(_previous: CreateTokenState, form: FormData): Promise<CreateTokenState> {
  if (!isSameOrigin(await headers())) return { ok: false, error: NOT_SAME_ORIGIN.error ?? "" };
  const member = await requireMember();
  const result = await createTokenFromForm(member.id, form);
  if (result.ok) revalidatePath("/settings/tokens");
  return result;
}

export async function revokeTokenAction(form: FormData): Promise<void> {
  if (!isSameOrigin(await headers())) return;
  const member = await requireMember();
  // Scoped to this member: another member's token id revokes nothing.
  const id = String(form.get("id") ?? "");
  if (UUID.test(id)) await revokeToken(id, member.id);
  revalidatePath("/settings/tokens");
}
