import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthForm } from "@/components/auth-form";
import { MIN_PASSWORD } from "@/lib/web/accounts";
import { currentMember } from "@/lib/web/session";
import { signUpAction } from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Create an account · Personal Data Service" };

export default async function SignUpPage() {
  if (await currentMember()) redirect("/settings/tokens");
  return <AuthForm mode="sign-up" action={signUpAction} minPassword={MIN_PASSWORD} />;
}
