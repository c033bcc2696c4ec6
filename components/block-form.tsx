"use client";

import { useActionState } from "react";
import type { FormState } from "@/lib/web/form-state";
import { FormStatus } from "./form-status";
import { SubmitButton } from "./submit-button";

export function BlockForm({ action }: { action: (previous: FormState, form: FormData) => Promise<FormState> }) {
  const [state, formAction] = useActionState(action, {});
  return (
    <form action={formAction} className="card stack">
      <div className="row end">
        <label className="grow">
          Handle to block
          <input name="handle" required placeholder="@handle" autoComplete="off" />
        </label>
        <SubmitButton variant="danger">Block</SubmitButton>
      </div>
      <FormStatus state={state} />
    </form>
  );
}
