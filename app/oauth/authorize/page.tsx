import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { OAuthConsentForm } from "@/components/oauth-consent-form";
import { SiteHeader } from "@/components/site-header";
import { AUTHORIZE_PARAMS, checkAuthorizeRequest } from "@/lib/surfaces/oauth/authorize";
import { limitChoices } from "@/lib/domain/credential-limit-choices";
import { consentPath } from "@/lib/web/oauth-consent";
import { currentMember } from "@/lib/web/session";
import { coverageLine } from "@/registry/scope-coverage";
import { describeScope } from "@/registry/scopes";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Connect an app · Personal Data Service" };

type Search = Record<string, string | string[] | undefined>;

const CONSENT_ERRORS: Record<string, string> = {
  scopes: "Pick at least one of the scopes asked for.",
  collections: "A chosen collection is not one of yours.",
  tools: "A chosen tool is not one the service has.",
};

/**
 * The OAuth authorization endpoint and its consent page: the request is checked (errors about the
 * client or redirect are shown here, the rest go back to the client), a member who is not signed
 * in signs in first and comes back here, then approves or denies.
 */
export default async function AuthorizePage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(search)) {
    if (name === "consent_error") continue;
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) params.append(name, one);
  }
  const check = await checkAuthorizeRequest(params);
  if (check.kind === "redirect_error") redirect(check.url);
  const member = await currentMember();
  if (check.kind === "ok" && !member) redirect(`/sign-in?next=${encodeURIComponent(consentPath(params))}`);
  return (
    <>
      <SiteHeader email={member?.email} />
      <main id="content" className="narrow">
        {check.kind === "show_error" ? (
          <section className="card" data-testid="authorize-error">
            <h1>This app cannot connect</h1>
            <p>{check.message}</p>
            <p className="muted">Nothing was shared. Close this page and tell the app's maker.</p>
          </section>
        ) : (
          member && <Consent check={check} member={member} params={params} error={search.consent_error} />
        )}
      </main>
    </>
  );
}

async function Consent({
  check,
  member,
  params,
  error,
}: {
  check: Extract<Awaited<ReturnType<typeof checkAuthorizeRequest>>, { kind: "ok" }>;
  member: { id: string; email: string };
  params: URLSearchParams;
  error: Search[string];
}) {
  const { client, redirectUri, scopes, resource } = check.request;
  const choices = await limitChoices(member.id);
  const redirectHost = URL.parse(redirectUri)?.host || redirectUri;
  const carried = AUTHORIZE_PARAMS.flatMap((name) => {
    const value = params.get(name);
    return value === null ? [] : [[name, value] as [string, string]];
  });
  const message = typeof error === "string" ? CONSENT_ERRORS[error] : undefined;
  return (
    <>
      <section className="card consent-client" aria-labelledby="client-heading">
        {client.logoUri && (
          // biome-ignore lint/performance/noImgElement: a client's logo from its own site, not an asset of ours
          <img
            src={client.logoUri}
            alt=""
            width={48}
            height={48}
            className="client-logo"
            referrerPolicy="no-referrer"
          />
        )}
        <h1 id="client-heading" data-testid="consent-client">
          {client.name} wants to use your account
        </h1>
        <p>
          Signed in as <strong>{member.email}</strong>. After you approve, you return to{" "}
          <strong data-testid="consent-redirect-host">{redirectHost}</strong>
          {client.kind === "metadata_document" ? (
            <>
              {" "}
              (the app identifies itself by <code>{client.id}</code>)
            </>
          ) : (
            " (a registered app)"
          )}
          . It will reach <code>{resource}</code> as you, only with what you allow below. You can revoke it at any time
          under Settings → Connected apps.
        </p>
      </section>
      {message && (
        <p role="alert" className="error">
          {message}
        </p>
      )}
      <OAuthConsentForm
        params={carried}
        clientName={client.name}
        limitChoices={choices}
        scopes={scopes.map((scope) => ({ scope, description: describeScope(scope), covers: coverageLine(scope) }))}
      />
    </>
  );
}
