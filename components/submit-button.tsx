"use client";

import type { ReactNode } from "react";
import { useFormStatus } from "react-dom";

/** Disabled while its form is being sent, so a double click cannot submit twice. */
export function SubmitButton({ children, variant }: { children: ReactNode; variant?: "danger" | "quiet" }) {
  const { pending } = useFormStatus();
  return (
    <button type="submit" disabled={pending} aria-busy={pending} className={variant}>
      {pending ? "Working…" : children}
    </button>
  );
}
