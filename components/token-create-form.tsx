"use client";

import { useActionState, useEffect, useRef, useState } from "react";
import type { LimitChoices } from "@/lib/domain/credential-limit-choices";
import type { CreateTokenState } from "@/lib/web/action-states";
import { CopyButton } from "./copy-button";
import { CredentialLimitsFields } from "./credential-limits-fields";
import { type Preset, ScopePicker, type ScopeInfo } from "./scope-picker";
import { SubmitButton } from "./submit-button";
import { useReveal } from "./use-reveal";

export type { Preset, ScopeInfo };

interface Props {
  action: (previous: CreateTokenState, form: FormData) => Promise<CreateTokenState>;
  expiryChoices: readonly { days: number; label: string }[];
  defaultDays: number;
  maxDays: number;
  scopes: readonly ScopeInfo[];
  presets: readonly Preset[];
  limitChoices: LimitChoices;
}

const DAY = 86_400_000;
const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);

/** Name, expiry (with the exact date) and scope checkboxes described from the registry; starts with none. */
export function TokenCreateForm({ action, expiryChoices, defaultDays, maxDays, scopes, presets, limitChoices }: Props) {
  const [state, formAction] = useActionState(action, {});
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const [expiry, setExpiry] = useState(String(defaultDays));
  const [customDay, setCustomDay] = useState("");
  const card = useRef<HTMLElement>(null);
  const secret = useRef<HTMLInputElement>(null);
  useReveal(card, secret, state.ok === true ? state : null);
  // React resets the form after a successful action; start the next token from a clean slate too.
  useEffect(() => {
    if (state.ok !== true) return;
    setPicked(new Set());
    setExpiry(String(defaultDays));
    setCustomDay("");
  }, [state, defaultDays]);
  const now = Date.now();
  const expiresOn =
    expiry === "custom"
      ? customDay
        ? `${customDay} 00:00 UTC`
        : "pick a date"
      : `${isoDay(now + Number(expiry) * DAY)} UTC`;
  return (
    <>
      {state.ok === true && (
        <section ref={card} className="card created" aria-labelledby="created-heading" data-testid="token-created">
          <h2 id="created-heading">Token “{state.name}” created</h2>
          <p id="created-note">
            Copy it now: it is shown only this once and cannot be recovered. It expires{" "}
            <strong data-testid="created-expiry">{state.expiresAt.slice(0, 16).replace("T", " ")} UTC</strong>.
          </p>
          <div className="secret-row">
            <input
              ref={secret}
              readOnly
              value={state.token}
              aria-label={`New token “${state.name}”, shown only once`}
              aria-describedby="created-note"
              className="secret"
              data-testid="new-token"
            />
            <CopyButton text={state.token} />
          </div>
          {state.snippets?.map((snippet) => (
            <div key={snippet.label} className="snippet">
              <h3>{snippet.label}</h3>
              {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable code block must be reachable by keyboard */}
              <pre tabIndex={0} data-testid={`snippet-${snippet.language}`}>
                <code>{snippet.code}</code>
              </pre>
            </div>
          ))}
        </section>
      )}
      <form action={formAction} className="card stack" aria-labelledby="new-token-heading">
        <h2 id="new-token-heading">{state.ok === true ? "Create another token" : "Create a token"}</h2>
        <div className="row">
          <label className="grow">
            Name
            <input name="name" required maxLength={100} placeholder="e.g. laptop script" />
          </label>
          <label>
            Expires after
            <select name="days" value={expiry} onChange={(event) => setExpiry(event.target.value)}>
              {expiryChoices.map((choice) => (
                <option key={choice.days} value={choice.days}>
                  {choice.label}
                </option>
              ))}
              <option value="custom">Custom date…</option>
            </select>
          </label>
          {expiry === "custom" && (
            <label>
              Expiry date
              <input
                type="date"
                name="expires_on"
                required
                min={isoDay(now + DAY)}
                max={isoDay(now + maxDays * DAY)}
                value={customDay}
                onChange={(event) => setCustomDay(event.target.value)}
              />
            </label>
          )}
        </div>
        <p className="muted small" data-testid="expiry-date" suppressHydrationWarning>
          Expires on {expiresOn}.
        </p>
        <ScopePicker scopes={scopes} picked={picked} onChange={setPicked} presets={presets} />
        <CredentialLimitsFields
          choices={limitChoices}
          error={state.ok === false && state.field ? { field: state.field, error: state.error } : undefined}
        />
        {state.ok === false && !state.field && (
          <p role="alert" className="error">
            {state.error}
          </p>
        )}
        <SubmitButton>Create token</SubmitButton>
      </form>
    </>
  );
}
