"use client";

import Link from "next/link";
import { useActionState } from "react";
import type { FormState } from "@/lib/web/form-state";
import { FormStatus } from "./form-status";
import { SubmitButton } from "./submit-button";

interface AuthFormProps {
  mode: "sign-in" | "sign-up";
  action: (previous: FormState, form: FormData) => Promise<FormState>;
  minPassword: number;
  /** Where to go after signing in (an authorization request's consent page); checked again on the server. */
  next?: string;
}

/** Email + password, shared by sign-in and sign-up; the server action answers errors in place. */
export function AuthForm({ mode, action, minPassword, next }: AuthFormProps) {
  const [state, formAction] = useActionState(action, {});
  const signUp = mode === "sign-up";
  return (
    <form action={formAction} className="card stack" aria-describedby="auth-status">
      <h1>{signUp ? "Create your account" : "Sign in"}</h1>
      {next && <input type="hidden" name="next" value={next} />}
      <label>
        Email
        <input
          name="email"
          type="email"
          autoComplete="email"
          required
          maxLength={254}
          defaultValue={state.values?.email}
        />
      </label>
      <label>
        Password
        <input
          name="password"
          type="password"
          autoComplete={signUp ? "new-password" : "current-password"}
          required
          minLength={signUp ? minPassword : undefined}
          maxLength={200}
        />
        {signUp && <span className="hint">At least {minPassword} characters.</span>}
      </label>
      <FormStatus id="auth-status" state={state} />
      <SubmitButton>{signUp ? "Create account" : "Sign in"}</SubmitButton>
      <p className="muted">
        {signUp ? (
          <>
            Already have an account?{" "}
            <Link href={next ? `/sign-in?next=${encodeURIComponent(next)}` : "/sign-in"}>Sign in</Link>
          </>
        ) : (
          <>
            New here?{" "}
            <Link href={next ? `/sign-up?next=${encodeURIComponent(next)}` : "/sign-up"}>Create an account</Link>
          </>
        )}
      </p>
    </form>
  );
}
