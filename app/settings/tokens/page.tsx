import type { Metadata } from "next";
import Link from "next/link";
import { SubmitButton } from "@/components/submit-button";
import { TokenCreateForm } from "@/components/token-create-form";
import { displayToken } from "@/lib/auth/token-format";
import { listTokens, type TokenRecord } from "@/lib/auth/tokens";
import { limitChoices } from "@/lib/domain/credential-limit-choices";
import { limitLabels } from "@/lib/web/credential-limits-form";
import { formatDateTime } from "@/lib/web/format";
import { requireMember } from "@/lib/web/session";
import {
  DEFAULT_TOKEN_DAYS,
  EXPIRES_SOON_DAYS,
  EXPIRY_CHOICES,
  MAX_TOKEN_DAYS,
  TOKEN_PRESETS,
} from "@/lib/web/token-form";
import { coverageLine } from "@/registry/scope-coverage";
import { describeScope, SCOPES } from "@/registry/scopes";
import { createTokenAction, renameTokenAction, revokeTokenAction } from "./actions";

export const metadata: Metadata = { title: "Tokens · Personal Data Service" };

const SCOPE_INFO = SCOPES.map((scope) => ({ scope, description: describeScope(scope), covers: coverageLine(scope) }));

export default async function TokensPage({ searchParams }: { searchParams: Promise<{ revoke?: string | string[] }> }) {
  const member = await requireMember();
  const [tokens, choices] = await Promise.all([listTokens(member.id), limitChoices(member.id)]);
  const collectionNames = new Map(choices.collections.map((c) => [c.id, c.name]));
  const { revoke } = await searchParams;
  const now = Date.now();
  const isLive = (t: TokenRecord) => !t.revoked_at && new Date(t.expires_at).getTime() > now;
  const live = tokens.filter(isLive);
  const ended = tokens.filter((t) => !isLive(t));
  const confirming = live.find((t) => t.id === revoke);
  return (
    <>
      <h1>Personal access tokens</h1>
      <p className="lead">
        A token lets a script or an assistant call <code>/api/v1</code> as you, limited to the scopes you pick. Send it
        as <code>Authorization: Bearer pds_…</code>.
      </p>
      {confirming && (
        <section className="card confirm" aria-labelledby="confirm-heading" data-testid="revoke-confirm">
          <h2 id="confirm-heading">Revoke “{confirming.name}”?</h2>
          <p>
            Anything using <code>{displayToken(confirming.last4)}</code> stops working at once (401). This cannot be
            undone.
          </p>
          <form action={revokeTokenAction} className="row">
            <input type="hidden" name="id" value={confirming.id} />
            <SubmitButton variant="danger">Yes, revoke it</SubmitButton>
            <Link href="/settings/tokens" className="button-like">
              Cancel
            </Link>
          </form>
        </section>
      )}
      <section aria-labelledby="tokens-heading">
        <h2 id="tokens-heading">Your tokens</h2>
        {live.length === 0 ? (
          <p className="muted">No active tokens.</p>
        ) : (
          <TokenTable tokens={live} now={now} collectionNames={collectionNames} />
        )}
        {ended.length > 0 && (
          <details className="ended">
            <summary>Revoked and expired ({ended.length})</summary>
            <TokenTable tokens={ended} now={now} collectionNames={collectionNames} />
          </details>
        )}
      </section>
      {/* Creating is its own step after the list; the new secret appears here, scrolled to and focused. */}
      <TokenCreateForm
        action={createTokenAction}
        expiryChoices={EXPIRY_CHOICES}
        defaultDays={DEFAULT_TOKEN_DAYS}
        maxDays={MAX_TOKEN_DAYS}
        scopes={SCOPE_INFO}
        presets={TOKEN_PRESETS}
        limitChoices={choices}
      />
    </>
  );
}

function TokenTable({
  tokens,
  now,
  collectionNames,
}: {
  tokens: readonly TokenRecord[];
  now: number;
  collectionNames: ReadonlyMap<string, string>;
}) {
  return (
    <div className="table-wrap">
      <table className="stacked">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Token</th>
            <th scope="col">Scopes</th>
            <th scope="col">Limits</th>
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
            const left = new Date(token.expires_at).getTime() - now;
            const live = !token.revoked_at && left > 0;
            const soon = live && left <= EXPIRES_SOON_DAYS * 86_400_000;
            return (
              <tr key={token.id} className={live ? undefined : "inactive"} data-testid="token-row">
                <th scope="row">
                  <form action={renameTokenAction} className="rename">
                    <input type="hidden" name="id" value={token.id} />
                    <input
                      name="name"
                      defaultValue={token.name}
                      required
                      maxLength={100}
                      aria-label={`Label of token ${token.name}`}
                    />
                    <SubmitButton variant="quiet">
                      Rename<span className="visually-hidden"> {token.name}</span>
                    </SubmitButton>
                  </form>
                </th>
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
                <td data-label="Limits" data-testid="token-limits">
                  {token.limits ? (
                    <ul className="tags">
                      {limitLabels(token.limits, collectionNames).map((label) => (
                        <li key={label}>{label}</li>
                      ))}
                    </ul>
                  ) : (
                    <span className="muted">none</span>
                  )}
                </td>
                <td data-label="Created">{formatDateTime(token.created_at)}</td>
                <td data-label="Expires">
                  {formatDateTime(token.expires_at)}
                  {soon && <span className="badge warn"> expires soon</span>}
                </td>
                <td data-label="Last used">{token.last_used_at ? formatDateTime(token.last_used_at) : "never"}</td>
                <td>
                  {live ? (
                    <Link href={`/settings/tokens?revoke=${token.id}`} className="button-like danger">
                      Revoke<span className="visually-hidden"> {token.name}</span>
                    </Link>
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
  );
}
