"use client";

import { useActionState } from "react";
import type { FormState } from "@/lib/web/form-state";
import { FormStatus } from "./form-status";
import { SubmitButton } from "./submit-button";

export function PasswordForm({ action }: { action: (previous: FormState, form: FormData) => Promise<FormState> }) {
  const [state, formAction] = useActionState(action, {});
  return (
    <form action={formAction} className="card stack">
      <label>
        Current password
        <input name="current_password" type="password" required autoComplete="current-password" />
      </label>
      <label>
        New password
        <input
          name="new_password"
          type="password"
          required
          minLength={10}
          maxLength={200}
          autoComplete="new-password"
        />
      </label>
      <label>
        New password again
        <input
          name="confirm_password"
          type="password"
          required
          minLength={10}
          maxLength={200}
          autoComplete="new-password"
        />
      </label>
      <SubmitButton>Change password</SubmitButton>
      <FormStatus state={state} />
    </form>
  );
}
