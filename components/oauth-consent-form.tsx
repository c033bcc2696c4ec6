"use client";

import { useState } from "react";
import { ScopePicker, type ScopeInfo } from "./scope-picker";

interface Props {
  /** The authorization request's parameters, carried back unchanged to the decision. */
  params: readonly [string, string][];
  /** The scopes the client asked for: offered, and checked at first. */
  scopes: readonly ScopeInfo[];
  collections: readonly { id: string; name: string }[];
  clientName: string;
}

/** Scopes (narrowable), an optional set of collections, and Approve or Deny. */
export function OAuthConsentForm({ params, scopes, collections, clientName }: Props) {
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set(scopes.map((s) => s.scope)));
  return (
    <form method="post" action="/oauth/authorize/decision" className="card stack" aria-labelledby="consent-heading">
      {params.map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <h2 id="consent-heading">What {clientName} may do</h2>
      <ScopePicker scopes={scopes} picked={picked} onChange={setPicked} legend="Scopes asked for" />
      <fieldset>
        <legend>Collections</legend>
        <p className="muted small">
          Leave every box unchecked to allow all your collections. Check some to limit {clientName} to them: other
          collections, and the items in them, stay invisible to it.
        </p>
        {collections.length === 0 ? (
          <p className="muted small">You have no collections yet.</p>
        ) : (
          <ul className="plain">
            {collections.map((collection) => (
              <li key={collection.id}>
                <label className="check">
                  <input type="checkbox" name="collections" value={collection.id} />
                  <span>{collection.name}</span>
                </label>
              </li>
            ))}
          </ul>
        )}
      </fieldset>
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
