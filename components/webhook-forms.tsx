"use client";

import { useActionState, useId, useRef, useState } from "react";
import type { SecretState } from "@/lib/web/action-states";
import { EVENT_TYPES } from "@/registry/events";
import { CopyButton } from "./copy-button";
import { SubmitButton } from "./submit-button";
import { useReveal } from "./use-reveal";

type Action = (previous: SecretState, form: FormData) => Promise<SecretState>;

function ShownOnce({ state, title }: { state: SecretState; title: string }) {
  const id = useId();
  const card = useRef<HTMLElement>(null);
  const secret = useRef<HTMLInputElement>(null);
  useReveal(card, secret, state.ok === true ? state : null);
  if (state.ok !== true) return null;
  return (
    <section ref={card} className="card created" aria-labelledby={`${id}-heading`} data-testid="webhook-secret-card">
      <h2 id={`${id}-heading`}>{title}</h2>
      <p id={`${id}-note`}>
        Signing secret for <code>{state.url}</code>. Copy it now: it is shown only this once.
      </p>
      <div className="secret-row">
        <input
          ref={secret}
          readOnly
          value={state.secret}
          aria-label="Signing secret, shown only once"
          aria-describedby={`${id}-note`}
          className="secret"
          data-testid="webhook-secret"
        />
        <CopyButton text={state.secret} />
      </div>
    </section>
  );
}

/** URL, description and the events to receive (every kind the registry declares, or all). */
export function WebhookCreateForm({ action }: { action: Action }) {
  const [state, formAction] = useActionState(action, {});
  const [all, setAll] = useState(true);
  return (
    <>
      <ShownOnce state={state} title="Endpoint added" />
      <form action={formAction} className="card stack">
        <h2>New endpoint</h2>
        <label>
          URL
          <input name="url" type="url" required maxLength={2000} placeholder="https://example.com/hooks/pds" />
        </label>
        <label>
          Description
          <input name="description" maxLength={500} placeholder="optional" />
        </label>
        <fieldset>
          <legend>Events</legend>
          <label className="check">
            <input type="checkbox" name="events" value="*" checked={all} onChange={(e) => setAll(e.target.checked)} />
            All events
          </label>
          {!all && (
            <div className="scope-grid">
              {EVENT_TYPES.map((type) => (
                <label key={type} className="check">
                  <input type="checkbox" name="events" value={type} aria-label={type} />
                  {type}
                </label>
              ))}
            </div>
          )}
        </fieldset>
        {state.ok === false && (
          <p role="alert" className="error">
            {state.error}
          </p>
        )}
        <SubmitButton>Add endpoint</SubmitButton>
      </form>
    </>
  );
}

/** Rotates the secret and shows the new one once; the old one keeps working for 24 hours. */
export function WebhookRotateForm({ action, id }: { action: Action; id: string }) {
  const [state, formAction] = useActionState(action, {});
  return (
    <>
      <form action={formAction}>
        <input type="hidden" name="id" value={id} />
        <SubmitButton variant="quiet">Rotate secret</SubmitButton>
      </form>
      <ShownOnce state={state} title="Secret rotated (the old one stays valid for 24 hours)" />
      {state.ok === false && (
        <p role="alert" className="error">
          {state.error}
        </p>
      )}
    </>
  );
}
