import type { LimitChoices } from "@/lib/domain/credential-limit-choices";

interface Props {
  choices: LimitChoices;
  /** The field the last submission refused, with why (parseCredentialLimits). */
  error?: { field: string; error: string };
}

/**
 * A credential's limits beyond its scopes, for any credential (personal access tokens, OAuth
 * grants): fields `collections` (repeated), `read_only`, `confirm_destructive`, `tools` (repeated),
 * read by parseCredentialLimits. Nothing picked means no limit. Uncontrolled, so a form action's
 * reset clears it, and it renders on the server or inside a client form alike.
 */
export function CredentialLimitsFields({ choices, error }: Props) {
  const errorFor = (field: string) =>
    error?.field === field ? (
      <p role="alert" className="field-error" id={`limits-${field}-error`}>
        {error.error}
      </p>
    ) : null;
  return (
    <fieldset className="stack limits" data-testid="credential-limits">
      <legend>Limits (optional)</legend>
      <p className="muted small">Beyond the scopes: leave all of this empty for no limits.</p>
      <div>
        <h3 className="limit-heading" id="limits-collections-heading">
          Only these collections
        </h3>
        <p className="muted small" id="limits-collections-hint">
          Picked: the credential sees and changes only these collections and their items; everything else is invisible
          to it, and it cannot create collections or use webhook endpoints. None picked: all collections.
        </p>
        {choices.collections.length === 0 ? (
          <p className="muted small">You have no collections yet.</p>
        ) : (
          <ul
            className="limit-options"
            aria-labelledby="limits-collections-heading"
            aria-describedby="limits-collections-hint"
          >
            {choices.collections.map((collection) => (
              <li key={collection.id}>
                <label className="check">
                  <input type="checkbox" name="collections" value={collection.id} />
                  <span>
                    {collection.name} <span className="muted small">({collection.type})</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
        {errorFor("collections")}
      </div>
      <label className="check">
        <input type="checkbox" name="read_only" aria-describedby="limits-read-only-hint" />
        <span>
          Read-only
          <span className="hint" id="limits-read-only-hint">
            Every write is refused (403 read_only_credential); assistants see only the read tools.
          </span>
        </span>
      </label>
      <label className="check">
        <input type="checkbox" name="confirm_destructive" aria-describedby="limits-confirm-hint" />
        <span>
          Confirm deletes
          <span className="hint" id="limits-confirm-hint">
            A delete is held until you confirm it here, signed in (Settings → Confirmations).
          </span>
        </span>
      </label>
      <details className="limit-tools">
        <summary>Only these tools</summary>
        <p className="muted small">
          Picked: only these tools (and the same REST operations) can be called. None picked: all tools the scopes
          allow.
        </p>
        <ul className="limit-options tools">
          {choices.tools.map((tool) => (
            <li key={tool.name}>
              <label className="check">
                <input type="checkbox" name="tools" value={tool.name} />
                <span>
                  <code>{tool.name}</code> <span className="muted small">{tool.summary}</span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      </details>
      {errorFor("tools")}
    </fieldset>
  );
}
