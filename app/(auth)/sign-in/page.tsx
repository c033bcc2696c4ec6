import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthForm } from "@/components/auth-form";
import { MIN_PASSWORD } from "@/lib/web/accounts";
import { currentMember } from "@/lib/web/session";
import { signInAction } from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in · Personal Data Service" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ deleted?: string }> }) {
  if (await currentMember()) redirect("/settings/tokens");
  const { deleted } = await searchParams;
  return (
    <>
      {deleted === "1" && (
        <p role="status" className="notice card" data-testid="account-deleted">
          Your account and everything in it has been deleted.
        </p>
      )}
      <AuthForm mode="sign-in" action={signInAction} minPassword={MIN_PASSWORD} />
    </>
  );
}
