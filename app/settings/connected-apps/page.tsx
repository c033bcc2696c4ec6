import type { Metadata } from "next";
import Link from "next/link";
import { SubmitButton } from "@/components/submit-button";
import { listGrants } from "@/lib/auth/oauth/grants";
import { limitChoices } from "@/lib/domain/credential-limit-choices";
import { limitLabels } from "@/lib/web/credential-limits-form";
import { formatDateTime } from "@/lib/web/format";
import { requireMember } from "@/lib/web/session";
import { revokeGrantAction } from "./actions";

export const metadata: Metadata = { title: "Connected apps · Personal Data Service" };

export default async function ConnectedAppsPage({
  searchParams,
}: {
  searchParams: Promise<{ revoke?: string | string[] }>;
}) {
  const member = await requireMember();
  const [grants, choices] = await Promise.all([listGrants(member.id), limitChoices(member.id)]);
  const names = new Map(choices.collections.map((c) => [c.id, c.name]));
  const { revoke } = await searchParams;
  const confirming = grants.find((g) => g.id === revoke);
  return (
    <>
      <h1>Connected apps</h1>
      <p className="lead">
        Assistants and apps you let in by OAuth (“Connect” in an MCP client). Each acts as you with only the scopes and
        collections you approved. Revoking one ends its access at once.
      </p>
      {confirming && (
        <section className="card confirm" aria-labelledby="confirm-heading" data-testid="revoke-confirm">
          <h2 id="confirm-heading">Revoke “{confirming.client_name}”?</h2>
          <p>Its tokens stop working at once (401); it must ask you again to reconnect.</p>
          <form action={revokeGrantAction} className="row">
            <input type="hidden" name="id" value={confirming.id} />
            <SubmitButton variant="danger">Yes, revoke it</SubmitButton>
            <Link href="/settings/connected-apps" className="button-like">
              Cancel
            </Link>
          </form>
        </section>
      )}
      {grants.length === 0 ? (
        <p className="muted">No connected apps.</p>
      ) : (
        <div className="table-wrap">
          <table className="stacked">
            <thead>
              <tr>
                <th scope="col">App</th>
                <th scope="col">Scopes</th>
                <th scope="col">Limits</th>
                <th scope="col">Connected</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {grants.map((grant) => (
                <tr key={grant.id} data-testid="grant-row">
                  <th scope="row">
                    {grant.client_name}
                    <div className="muted small">
                      <code>{grant.client_id.startsWith("https://") ? grant.client_id : "registered app"}</code>
                    </div>
                  </th>
                  <td data-label="Scopes">
                    <ul className="tags">
                      {grant.scopes.map((scope) => (
                        <li key={scope}>{scope}</li>
                      ))}
                    </ul>
                  </td>
                  <td data-label="Limits">{limitLabels(grant.limits, names).join("; ") || "none"}</td>
                  <td data-label="Connected">{formatDateTime(grant.created_at)}</td>
                  <td data-label="Last used">{grant.last_used_at ? formatDateTime(grant.last_used_at) : "never"}</td>
                  <td>
                    <Link href={`/settings/connected-apps?revoke=${grant.id}`} className="button-like danger">
                      Revoke<span className="visually-hidden"> {grant.client_name}</span>
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
