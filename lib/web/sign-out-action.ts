"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { isSameOrigin } from "./csrf.ts";
import { stopSession } from "./session.ts";

/** The header's Sign out button (components/site-header.tsx), on every page. */
export async function signOutAction(): Promise<void> {
  if (!isSameOrigin(await headers())) return;
  await stopSession();
  redirect("/sign-in");
}
