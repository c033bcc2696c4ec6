"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { isSameOrigin } from "@/lib/web/csrf";
import { type FormState, NOT_SAME_ORIGIN } from "@/lib/web/form-state";
import { returnPath } from "@/lib/web/return-path";
import { signInBrowser, signUpBrowser } from "@/lib/web/session";

const text = (form: FormData, name: string) => String(form.get(name) ?? "");

export async function signUpAction(_previous: FormState, form: FormData): Promise<FormState> {
  if (!isSameOrigin(await headers())) return NOT_SAME_ORIGIN;
  const result = await signUpBrowser(text(form, "email"), text(form, "password"));
  if (!result.ok) return { error: result.error, values: { email: text(form, "email") } };
  redirect(returnPath(text(form, "next")));
}

export async function signInAction(_previous: FormState, form: FormData): Promise<FormState> {
  if (!isSameOrigin(await headers())) return NOT_SAME_ORIGIN;
  const result = await signInBrowser(text(form, "email"), text(form, "password"));
  if (!result.ok) return { error: result.error, values: { email: text(form, "email") } };
  redirect(returnPath(text(form, "next")));
}
