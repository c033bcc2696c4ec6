"use client";

import { useActionState } from "react";
import type { FormState } from "@/lib/web/form-state";
import { FormStatus } from "./form-status";
import { SubmitButton } from "./submit-button";

/** One activity row's Undo button, with what the undo answered (what changed since, when it refuses). */
export function UndoForm({
  id,
  label,
  action,
}: {
  id: string;
  label: string;
  action: (previous: FormState, form: FormData) => Promise<FormState>;
}) {
  const [state, formAction] = useActionState(action, {});
  return (
    <form action={formAction} className="stack">
      <input type="hidden" name="id" value={id} />
      <SubmitButton variant="quiet">
        Undo<span className="visually-hidden"> {label}</span>
      </SubmitButton>
      <FormStatus state={state} />
    </form>
  );
}
