import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthForm } from "@/components/auth-form";
import { MIN_PASSWORD } from "@/lib/web/accounts";
import { returnPath } from "@/lib/web/return-path";
import { currentMember } from "@/lib/web/session";
import { signUpAction } from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Create an account · Personal Data Service" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const { next } = await searchParams;
  const back = returnPath(typeof next === "string" ? next : "");
  if (await currentMember()) redirect(back);
  return (
    <AuthForm mode="sign-up" action={signUpAction} minPassword={MIN_PASSWORD} next={next === back ? back : undefined} />
  );
}
