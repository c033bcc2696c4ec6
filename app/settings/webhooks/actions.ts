"use server";

import type { SecretState } from "@/lib/web/action-states";
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { isSameOrigin } from "@/lib/web/csrf";
import { NOT_SAME_ORIGIN } from "@/lib/web/form-state";
import { memberCaller, requireMember } from "@/lib/web/session";
import { callAsSession, problemToForm } from "@/lib/web/session-call";

/** What the create and rotate forms answer: the secret, shown this once. */

async function call(tool: string, input: Record<string, unknown>) {
  const requestHeaders = await headers();
  if (!isSameOrigin(requestHeaders)) return { ok: false as const, error: NOT_SAME_ORIGIN.error ?? "" };
  const member = await requireMember();
  const result = await callAsSession(memberCaller(member), tool, input, requestHeaders);
  revalidatePath("/settings/webhooks");
  if (!result.ok) {
    const form = problemToForm(result.problem);
    const fields = Object.entries(form.fields).map(([name, message]) => `${name}: ${message}`);
    return { ok: false as const, error: [form.error, ...fields].join(" ") };
  }
  return { ok: true as const, body: result.body as Record<string, unknown> };
}

/** The same webhook_endpoints_create capability the API uses, with the session as principal. */
export async function createWebhookAction(_previous: SecretState, form: FormData): Promise<SecretState> {
  const picked = form.getAll("events").map(String);
  const input = {
    url: String(form.get("url") ?? "").trim(),
    description: String(form.get("description") ?? ""),
    events: picked.includes("*") || picked.length === 0 ? ["*"] : picked,
  };
  const result = await call("webhook_endpoints_create", input);
  if (!result.ok) return result;
  return { ok: true, secret: String(result.body.secret), url: String(result.body.url) };
}

export async function rotateWebhookAction(_previous: SecretState, form: FormData): Promise<SecretState> {
  const result = await call("webhook_endpoints_rotate_secret", { id: String(form.get("id") ?? "") });
  if (!result.ok) return result;
  return { ok: true, secret: String(result.body.secret), url: String(result.body.url) };
}

export async function pingWebhookAction(form: FormData): Promise<void> {
  await call("webhook_endpoints_ping", { id: String(form.get("id") ?? "") });
}

export async function toggleWebhookAction(form: FormData): Promise<void> {
  await call("webhook_endpoints_update", { id: String(form.get("id") ?? ""), enabled: form.get("enabled") === "true" });
}

export async function deleteWebhookAction(form: FormData): Promise<void> {
  await call("webhook_endpoints_delete", { id: String(form.get("id") ?? "") });
}

export async function retryDeliveryAction(form: FormData): Promise<void> {
  await call("webhook_endpoints_deliveries_retry", {
    id: String(form.get("id") ?? ""),
    delivery_id: String(form.get("delivery_id") ?? ""),
  });
}
