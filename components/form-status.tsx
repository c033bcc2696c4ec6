import type { FormState } from "@/lib/web/form-state";

/** Announces a form's outcome to screen readers: errors assertively, notices politely. */
export function FormStatus({ id, state }: { id?: string; state: FormState }) {
  return (
    <div id={id} className="status-region">
      {state.error && (
        <p role="alert" className="error">
          {state.error}
        </p>
      )}
      {state.notice && (
        <p role="status" className="notice">
          {state.notice}
        </p>
      )}
    </div>
  );
}
