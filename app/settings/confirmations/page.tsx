import type { Metadata } from "next";
import { SubmitButton } from "@/components/submit-button";
import { type DeleteConfirmation, pendingDeletes } from "@/lib/domain/delete-confirmations";
import { PROBLEM_CODES } from "@/lib/http/problem";
import { formatDateTime } from "@/lib/web/format";
import { requireMember } from "@/lib/web/session";
import { confirmDeleteAction, dismissDeleteAction } from "./actions";

export const metadata: Metadata = { title: "Confirm deletes · Personal Data Service" };

type Search = Promise<{ id?: string | string[]; result?: string | string[] }>;

const RESULTS: Record<string, string> = {
  deleted: "Deleted.",
  kept: "Kept: nothing was deleted.",
  gone: "That request is no longer pending (confirmed, dismissed, lapsed, or the row is already gone).",
};

// The row's own fields worth reading: ids and bookkeeping stay out (the label and context name them).
const shown = ([key, value]: [string, unknown]) =>
  key !== "id" &&
  !key.endsWith("_id") &&
  key !== "updated_at" &&
  value !== null &&
  value !== "" &&
  !(Array.isArray(value) && !value.length);

export default async function ConfirmationsPage({ searchParams }: { searchParams: Search }) {
  const member = await requireMember();
  const { id, result } = await searchParams;
  const pending = await pendingDeletes(member.id);
  // The one an assistant's link names comes first.
  const ordered = [...pending.filter((p) => p.id === id), ...pending.filter((p) => p.id !== id)];
  const said = typeof result === "string" ? resultLine(result) : null;
  return (
    <>
      <h1>Confirm deletes</h1>
      <p className="lead">
        A token set to <strong>confirm deletes</strong> cannot delete on its own: each delete it asks for waits here
        until you confirm it. Nothing has been deleted yet.
      </p>
      {said && (
        <p
          role="status"
          className={result === "deleted" || result === "kept" ? "notice" : "error"}
          data-testid="confirm-result"
        >
          {said}
        </p>
      )}
      {ordered.length === 0 ? (
        <p className="muted">No deletes are waiting for you.</p>
      ) : (
        ordered.map((held) => <HeldDelete key={held.id} held={held} named={held.id === id} />)
      )}
    </>
  );
}

/** Only fixed sentences: the query string is the link's, so no text of it is shown as it came. */
function resultLine(result: string): string | null {
  const code = result.startsWith("refused:") ? result.slice("refused:".length) : null;
  if (code !== null) {
    return code in PROBLEM_CODES
      ? `The store refused the delete (${code}); nothing was deleted. See /docs/errors#${code}.`
      : null;
  }
  return RESULTS[result] ?? null;
}

function HeldDelete({ held, named }: { held: DeleteConfirmation; named: boolean }) {
  const { label, context, record } = held.target;
  const fields = Object.entries(record).filter(shown);
  const headingId = `held-${held.id}`;
  return (
    <section
      className={`card stack${named ? " confirm" : ""}`}
      aria-labelledby={headingId}
      data-testid="held-delete"
      id={held.id}
    >
      <h2 id={headingId}>
        Delete {held.resource} “{label}”{context ? ` ${context}` : ""}?
      </h2>
      <p className="muted small">
        Asked by <strong>{held.credential}</strong> ({held.tool}) on {formatDateTime(held.created_at)}; lapses{" "}
        {formatDateTime(held.expires_at)}.
      </p>
      <dl className="held-fields">
        {fields.map(([key, value]) => (
          <div key={key}>
            <dt>{key.replace(/_/g, " ")}</dt>
            <dd>
              {key.endsWith("_at")
                ? formatDateTime(String(value))
                : Array.isArray(value)
                  ? value.join(", ")
                  : String(value)}
            </dd>
          </div>
        ))}
      </dl>
      <div className="row">
        <form action={confirmDeleteAction}>
          <input type="hidden" name="id" value={held.id} />
          <SubmitButton variant="danger">
            Delete it<span className="visually-hidden"> ({label})</span>
          </SubmitButton>
        </form>
        <form action={dismissDeleteAction}>
          <input type="hidden" name="id" value={held.id} />
          <SubmitButton variant="quiet">
            Keep it<span className="visually-hidden"> ({label})</span>
          </SubmitButton>
        </form>
      </div>
    </section>
  );
}
