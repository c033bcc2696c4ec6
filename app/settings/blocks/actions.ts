"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { blockByHandle, unblock } from "@/lib/web/blocks";
import { isSameOrigin } from "@/lib/web/csrf";
import { type FormState, NOT_SAME_ORIGIN } from "@/lib/web/form-state";
import { requireMember } from "@/lib/web/session";

export async function blockAction(_previous: FormState, form: FormData): Promise<FormState> {
  if (!isSameOrigin(await headers())) return NOT_SAME_ORIGIN;
  const member = await requireMember();
  const result = await blockByHandle(member.id, String(form.get("handle") ?? ""));
  if (!result.ok) return { error: result.error };
  revalidatePath("/settings/blocks");
  return { notice: `@${result.handle} is blocked: neither of you can follow or message the other.` };
}

export async function unblockAction(form: FormData): Promise<void> {
  if (!isSameOrigin(await headers())) return;
  const member = await requireMember();
  await unblock(member.id, String(form.get("id") ?? ""));
  revalidatePath("/settings/blocks");
}
