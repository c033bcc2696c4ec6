"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { signIn, signUp } from "@/lib/web/accounts";
import { clientAddress, isSameOrigin } from "@/lib/web/csrf";
import { type FormState, NOT_SAME_ORIGIN } from "@/lib/web/form-state";
import { startSession, stopSession } from "@/lib/web/session";

const text = (form: FormData, name: string) => String(form.get(name) ?? "");

export async function signUpAction(_previous: FormState, form: FormData): Promise<FormState> {
  if (!isSameOrigin(await headers())) return NOT_SAME_ORIGIN;
  const result = await signUp(text(form, "email"), text(form, "password"));
  if (!result.ok) return { error: result.error, values: { email: text(form, "email") } };
  await startSession(result.memberId);
  redirect("/settings/tokens");
}

export async function signInAction(_previous: FormState, form: FormData): Promise<FormState> {
  const requestHeaders = await headers();
  if (!isSameOrigin(requestHeaders)) return NOT_SAME_ORIGIN;
  const result = await signIn(text(form, "email"), text(form, "password"), clientAddress(requestHeaders));
  if (!result.ok) return { error: result.error, values: { email: text(form, "email") } };
  await startSession(result.memberId);
  redirect("/settings/tokens");
}

export async function signOutAction(): Promise<void> {
  if (!isSameOrigin(await headers())) return;
  await stopSession();
  redirect("/sign-in");
}
