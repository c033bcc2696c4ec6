import type { Metadata } from "next";
import { UndoForm } from "@/components/undo-form";
import { ACTIVITY_KEEP_DAYS } from "@/registry/activity";
import { describeOperation, listActivity, listCredentials, objectHref, PERIODS, type Period } from "@/lib/web/activity";
import { formatDateTime } from "@/lib/web/format";
import { requireMember } from "@/lib/web/session";
import { undoAction } from "./actions";

export const metadata: Metadata = { title: "Activity · Personal Data Service" };

const SURFACES: Record<string, string> = { rest: "REST", invoke: "tool invoke", mcp: "MCP", page: "settings page" };

export default async function ActivityPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const member = await requireMember();
  const query = await searchParams;
  const period: Period = query.period && query.period in PERIODS ? (query.period as Period) : "30d";
  const credential = /^(token|oauth):[\w-]{1,100}$/.test(query.credential ?? "") ? query.credential : undefined;
  const entries = await listActivity(member.id, { credential, period });
  const credentials = await listCredentials(member.id, entries);
  const labels = new Map(credentials.map((c) => [c.key, c.label]));
  return (
    <>
      <h1>Activity</h1>
      <p className="lead">
        What your tokens and connected apps did: each write, and each attempt that was refused, with its error. An
        update or a delete can be undone for {ACTIVITY_KEEP_DAYS} days; an update is put back only if nothing changed
        the record since. Creates, check-ins and messages are not undone.
      </p>
      <form method="get" className="card row end">
        <label className="grow">
          Token or app
          <select name="credential" defaultValue={credential ?? ""}>
            <option value="">All</option>
            {credentials.map((c) => (
              <option key={c.key} value={c.key}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Period
          <select name="period" defaultValue={period}>
            {Object.entries(PERIODS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Show</button>
      </form>
      <section aria-labelledby="activity-heading">
        <h2 id="activity-heading">Writes and attempts</h2>
        {entries.length === 0 ? (
          <p className="muted">No activity in this period.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">By</th>
                <th scope="col">Operation</th>
                <th scope="col">Object</th>
                <th scope="col">Result</th>
                <th scope="col">Undo</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => {
                const href = objectHref(entry);
                const what = describeOperation(entry.operation);
                return (
                  <tr key={entry.id} data-testid="activity-entry" data-operation={entry.operation}>
                    <td>{formatDateTime(entry.created_at)}</td>
                    <td>
                      {labels.get(`${entry.actor_kind}:${entry.actor_id}`) ?? entry.actor_kind}
                      <span className="muted small"> · {SURFACES[entry.surface] ?? entry.surface}</span>
                    </td>
                    <td>
                      {what}
                      {entry.children > 0 && <span className="muted small"> (with {entry.children} more)</span>}
                    </td>
                    <td>{entry.record_id ? href ? <a href={href}>{entry.record_id}</a> : entry.record_id : "—"}</td>
                    <td>
                      {entry.status === null
                        ? entry.undone_at
                          ? `Done; undone ${formatDateTime(entry.undone_at)}`
                          : "Done"
                        : `Refused: ${entry.status} ${entry.error_code ?? ""}`}
                    </td>
                    <td>
                      {entry.undoable ? (
                        <UndoForm id={entry.id} label={`${what} ${entry.record_id ?? ""}`} action={undoAction} />
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
