import type { Metadata } from "next";
import { SubmitButton } from "@/components/submit-button";
import { TokenCreateForm } from "@/components/token-create-form";
import { displayToken } from "@/lib/auth/token-format";
import { listTokens } from "@/lib/auth/tokens";
import { formatDateTime } from "@/lib/web/format";
import { requireMember } from "@/lib/web/session";
import { DEFAULT_TOKEN_DAYS, EXPIRY_CHOICES } from "@/lib/web/token-form";
import { createTokenAction, revokeTokenAction } from "./actions";

export const metadata: Metadata = { title: "Tokens · Personal Data Service" };

export default async function TokensPage() {
  const member = await requireMember();
  const tokens = await listTokens(member.id);
  const now = Date.now();
  return (
    <>
      <h1>Personal access tokens</h1>
      <p className="lead">
        A token lets a script or an assistant call <code>/api/v1</code> as you, limited to the scopes you pick. Send it
        as <code>Authorization: Bearer pds_…</code>.
      </p>
      <TokenCreateForm action={createTokenAction} expiryChoices={EXPIRY_CHOICES} defaultDays={DEFAULT_TOKEN_DAYS} />
      <section aria-labelledby="tokens-heading">
        <h2 id="tokens-heading">Your tokens</h2>
        {tokens.length === 0 ? (
          <p className="muted">No tokens yet.</p>
        ) : (
          <div className="table-wrap">
            <table className="stacked">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Token</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Created</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span className="visually-hidden">Action</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {tokens.map((token) => {
                  const expired = new Date(token.expires_at).getTime() <= now;
                  const live = !token.revoked_at && !expired;
                  return (
                    <tr key={token.id} className={live ? undefined : "inactive"} data-testid="token-row">
                      <th scope="row">{token.name}</th>
                      <td data-label="Token">
                        <code className="nowrap">{displayToken(token.last4)}</code>
                      </td>
                      <td data-label="Scopes">
                        <ul className="tags">
                          {token.scopes.map((scope) => (
                            <li key={scope}>{scope}</li>
                          ))}
                        </ul>
                      </td>
                      <td data-label="Created">{formatDateTime(token.created_at)}</td>
                      <td data-label="Expires">{formatDateTime(token.expires_at)}</td>
                      <td data-label="Last used">{token.last_used_at ? formatDateTime(token.last_used_at) : "never"}</td>
                      <td>
                        {live ? (
                          <form action={revokeTokenAction}>
                            <input type="hidden" name="id" value={token.id} />
                            <SubmitButton variant="danger">
                              Revoke<span className="visually-hidden"> {token.name}</span>
                            </SubmitButton>
                          </form>
                        ) : (
                          <span className="badge">{token.revoked_at ? "revoked" : "expired"}</span>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
