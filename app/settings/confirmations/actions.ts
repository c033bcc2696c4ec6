"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { isUuid } from "@/registry/fields";
import { takeDelete } from "@/lib/domain/delete-confirmations";
import { isSameOrigin } from "@/lib/web/csrf";
import { callAsSession } from "@/lib/web/session-call";
import { memberCaller, requireMember } from "@/lib/web/session";

const PAGE = "/settings/confirmations";

/**
 * The member confirms a held delete: it leaves the list, then the delete runs through the same
 * pipeline as any call, as the signed-in member (RLS, the store's rules); only now is anything deleted.
 */
export async function confirmDeleteAction(form: FormData): Promise<void> {
  const requestHeaders = await headers();
  if (!isSameOrigin(requestHeaders)) return;
  const member = await requireMember();
  const id = String(form.get("id") ?? "");
  const held = isUuid(id) ? await takeDelete(id, member.id) : null;
  let result = "gone";
  if (held) {
    const outcome = await callAsSession(memberCaller(member), held.tool, { id: held.target_id }, requestHeaders);
    result = outcome.ok ? "deleted" : outcome.problem.status === 404 ? "gone" : `refused:${outcome.problem.code}`;
  }
  revalidatePath(PAGE);
  redirect(`${PAGE}?result=${encodeURIComponent(result)}`);
}

/** The member keeps the row: the held delete is dropped, nothing else changes. */
export async function dismissDeleteAction(form: FormData): Promise<void> {
  if (!isSameOrigin(await headers())) return;
  const member = await requireMember();
  const id = String(form.get("id") ?? "");
  if (isUuid(id)) await takeDelete(id, member.id);
  revalidatePath(PAGE);
  redirect(`${PAGE}?result=kept`);
}
