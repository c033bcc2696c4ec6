"use client";

import { useActionState } from "react";
import type { FormState } from "@/lib/web/form-state";
import { FormStatus } from "./form-status";
import { SubmitButton } from "./submit-button";

/** Re-enter the password to delete the account; the server action answers a refusal in place. */
export function AccountDeleteForm({ action }: { action: (previous: FormState, form: FormData) => Promise<FormState> }) {
  const [state, formAction] = useActionState(action, {});
  return (
    <form action={formAction} className="stack" aria-describedby="delete-status">
      <label>
        Your password
        <input name="password" type="password" autoComplete="current-password" required maxLength={200} />
      </label>
      <FormStatus id="delete-status" state={state} />
      <SubmitButton variant="danger">Delete my account</SubmitButton>
    </form>
  );
}
