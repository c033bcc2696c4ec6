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
}

/** Email + password, shared by sign-in and sign-up; the server action answers errors in place. */
export function AuthForm({ mode, action, minPassword }: AuthFormProps) {
  const [state, formAction] = useActionState(action, {});
  const signUp = mode === "sign-up";
  return (
    <form action={formAction} className="card stack" aria-describedby="auth-status">
      <h1>{signUp ? "Create your account" : "Sign in"}</h1>
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
            Already have an account? <Link href="/sign-in">Sign in</Link>
          </>
        ) : (
          <>
            New here? <Link href="/sign-up">Create an account</Link>
          </>
        )}
      </p>
    </form>
  );
}
