"use client";

import { useActionState } from "react";
import type { ProfileState } from "@/lib/web/action-states";
import { FormStatus } from "./form-status";
import { SubmitButton } from "./submit-button";

export interface ProfileValues {
  handle: string;
  display_name: string;
  bio: string;
  timezone: string;
  attachment_consent: "everyone" | "following" | "nobody";
  plan: "free" | "pro";
}

interface Props {
  action: (previous: ProfileState, form: FormData) => Promise<ProfileState>;
  profile: ProfileValues;
  timezones: readonly string[];
  consentHelp: string;
}

const CONSENT = [
  { value: "everyone", label: "Everyone" },
  { value: "following", label: "Members I follow" },
  { value: "nobody", label: "Nobody" },
] as const;

export function ProfileForm({ action, profile, timezones, consentHelp }: Props) {
  const [state, formAction] = useActionState(action, {});
  // After a refusal the form keeps what was typed; after a save it shows the stored profile.
  const value = (name: keyof ProfileValues) => state.values?.[name] ?? profile[name];
  const fieldError = (name: string) =>
    state.fields?.[name] ? (
      <span className="field-error" id={`${name}-error`}>
        {state.fields[name]}
      </span>
    ) : null;
  const described = (name: string) => (state.fields?.[name] ? `${name}-error` : undefined);
  return (
    <form action={formAction} className="card stack">
      <div className="row">
        <label className="grow">
          Display name
          <input
            name="display_name"
            defaultValue={value("display_name")}
            maxLength={100}
            aria-describedby={described("display_name")}
          />
          {fieldError("display_name")}
        </label>
        <label className="grow">
          Handle
          <input
            name="handle"
            defaultValue={value("handle")}
            required
            pattern="[A-Za-z0-9_]{3,30}"
            aria-describedby={described("handle") ?? "handle-hint"}
          />
          <span className="hint" id="handle-hint">
            3–30 letters, digits or _; unique.
          </span>
          {fieldError("handle")}
        </label>
      </div>
      <label>
        Bio
        <textarea
          name="bio"
          rows={4}
          maxLength={2000}
          defaultValue={value("bio")}
          aria-describedby={described("bio")}
        />
        {fieldError("bio")}
      </label>
      <div className="row">
        <label className="grow">
          Time zone
          <input
            name="timezone"
            list="timezones"
            defaultValue={value("timezone")}
            required
            aria-describedby={described("timezone")}
          />
          <datalist id="timezones">
            {timezones.map((zone) => (
              <option key={zone} value={zone} />
            ))}
          </datalist>
          {fieldError("timezone")}
        </label>
        <fieldset className="grow">
          <legend>Who may send you attachments</legend>
          {CONSENT.map((choice) => (
            <label key={choice.value} className="check">
              <input
                type="radio"
                name="attachment_consent"
                value={choice.value}
                defaultChecked={value("attachment_consent") === choice.value}
              />
              {choice.label}
            </label>
          ))}
          <span className="hint">{consentHelp}</span>
        </fieldset>
      </div>
      <p>
        Plan: <strong className="badge">{profile.plan}</strong>{" "}
        <span className="muted">Changed only by an operator.</span>
      </p>
      <FormStatus state={state} />
      <SubmitButton>Save profile</SubmitButton>
    </form>
  );
}
