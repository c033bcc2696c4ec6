import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthForm } from "@/components/auth-form";
import { MIN_PASSWORD } from "@/lib/web/accounts";
import { returnPath } from "@/lib/web/return-path";
import { currentMember } from "@/lib/web/session";
import { signInAction } from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in · Personal Data Service" };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ deleted?: string; next?: string | string[] }>;
}) {
  const { deleted, next } = await searchParams;
  const back = returnPath(typeof next === "string" ? next : "");
  if (await currentMember()) redirect(back);
  return (
    <>
      {deleted === "1" && (
        <p role="status" className="notice card" data-testid="account-deleted">
          Your account and everything in it has been deleted.
        </p>
      )}
      <AuthForm
        mode="sign-in"
        action={signInAction}
        minPassword={MIN_PASSWORD}
        next={next === back ? back : undefined}
      />
    </>
  );
}
