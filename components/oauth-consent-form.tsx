"use client";

import { useState } from "react";
import type { LimitChoices } from "@/lib/domain/credential-limit-choices";
import { CredentialLimitsFields } from "./credential-limits-fields";
import { ScopePicker, type ScopeInfo } from "./scope-picker";

interface Props {
  /** The authorization request's parameters, carried back unchanged to the decision. */
  params: readonly [string, string][];
  /** The scopes the client asked for: offered, and checked at first. */
  scopes: readonly ScopeInfo[];
  /** What the member may limit the grant to: the same limits as a personal access token's. */
  limitChoices: LimitChoices;
  clientName: string;
}

/** Scopes (narrowable), the same optional limits as a token's (collections, read-only, …), and Approve or Deny. */
export function OAuthConsentForm({ params, scopes, limitChoices, clientName }: Props) {
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set(scopes.map((s) => s.scope)));
  return (
    <form method="post" action="/oauth/authorize/decision" className="card stack" aria-labelledby="consent-heading">
      {params.map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <h2 id="consent-heading">What {clientName} may do</h2>
      <ScopePicker scopes={scopes} picked={picked} onChange={setPicked} legend="Scopes asked for" />
      <CredentialLimitsFields choices={limitChoices} />
      <div className="row">
        <button type="submit" name="decision" value="approve" disabled={picked.size === 0}>
          Approve
        </button>
        <button type="submit" name="decision" value="deny" className="quiet" formNoValidate>
          Deny
        </button>
      </div>
    </form>
  );
}
