"use client";

import { useActionState, useState } from "react";
import type { CreateTokenState } from "@/app/settings/tokens/actions";
import { READ_ONLY_SCOPES, SCOPE_FAMILIES, SCOPES } from "@/registry/scopes";
import { CopyButton } from "./copy-button";
import { SubmitButton } from "./submit-button";

interface Props {
  action: (previous: CreateTokenState, form: FormData) => Promise<CreateTokenState>;
  expiryChoices: readonly { days: number; label: string }[];
  defaultDays: number;
}

/** Name, expiry and scope checkboxes (generated from the registry's scopes), with presets. */
export function TokenCreateForm({ action, expiryChoices, defaultDays }: Props) {
  const [state, formAction] = useActionState(action, {});
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set(READ_ONLY_SCOPES));
  const toggle = (scope: string, on: boolean) => {
    const next = new Set(picked);
    if (on) next.add(scope);
    else next.delete(scope);
    setPicked(next);
  };
  return (
    <>
      {state.ok === true && (
        <section className="card created" aria-labelledby="created-heading">
          <h2 id="created-heading">Token “{state.name}” created</h2>
          <p>Copy it now: it is shown only this once and cannot be recovered.</p>
          <div className="secret-row">
            <input readOnly value={state.token} aria-label="New token" className="secret" data-testid="new-token" />
            <CopyButton text={state.token} />
          </div>
        </section>
      )}
      <form action={formAction} className="card stack">
        <h2>New token</h2>
        <div className="row">
          <label className="grow">
            Name
            <input name="name" required maxLength={100} placeholder="e.g. laptop script" />
          </label>
          <label>
            Expires after
            <select name="days" defaultValue={String(defaultDays)}>
              {expiryChoices.map((choice) => (
                <option key={choice.days} value={choice.days}>
                  {choice.label}
                </option>
              ))}
            </select>
          </label>
        </div>
        <fieldset>
          <legend>Scopes</legend>
          <div className="presets">
            <button type="button" className="quiet" onClick={() => setPicked(new Set(READ_ONLY_SCOPES))}>
              Read-only
            </button>
            <button type="button" className="quiet" onClick={() => setPicked(new Set(SCOPES))}>
              Full access
            </button>
            <button type="button" className="quiet" onClick={() => setPicked(new Set())}>
              Clear
            </button>
          </div>
          <div className="scope-grid">
            {SCOPE_FAMILIES.map((family) => (
              <div key={family} className="scope-family">
                <span className="scope-name">{family}</span>
                {(["read", "write"] as const).map((access) => {
                  const scope = `${family}:${access}`;
                  return (
                    <label key={scope} className="check">
                      <input
                        type="checkbox"
                        name="scopes"
                        value={scope}
                        checked={picked.has(scope)}
                        onChange={(event) => toggle(scope, event.target.checked)}
                        aria-label={scope}
                      />
                      {access}
                    </label>
                  );
                })}
              </div>
            ))}
          </div>
        </fieldset>
        {state.ok === false && (
          <p role="alert" className="error">
            {state.error}
          </p>
        )}
        <SubmitButton>Create token</SubmitButton>
      </form>
    </>
  );
}
