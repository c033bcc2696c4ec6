import { isScope, type Scope } from "../../registry/scopes.ts";
import { approveGrant } from "../auth/oauth/grants.ts";
import { isStorableText } from "../db/storable-text.ts";
import { limitChoices } from "../domain/credential-limit-choices.ts";
import { AUTHORIZE_PARAMS, checkAuthorizeRequest, redirectWith } from "../surfaces/oauth/authorize.ts";
import { parseCredentialLimits } from "./credential-limits-form.ts";
import { isSameOrigin } from "./csrf.ts";
import { memberForRequest, nextAuthRequest } from "./session.ts";

/** Where the sign-in page sends the member back to: this very authorization request. */
export const consentPath = (params: URLSearchParams) => `/oauth/authorize?${params.toString()}`;

const seeOther = (location: string) =>
  new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });

const page = (status: number, message: string) =>
  new Response(
    `<!doctype html><meta charset="utf-8"><title>Authorization failed</title><main><h1>Authorization failed</h1><p>${message.replace(/[<>&"]/g, "")}</p></main>`,
    {
      status,
      headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
    },
  );

/**
 * POST /oauth/authorize/decision: the consent form's answer. The request is checked again from the
 * parameters the form carried (nothing is trusted from the first check), then Deny sends
 * access_denied and Approve creates the grant and sends its code, both with state and iss.
 */
export async function handleConsentDecision(request: Request): Promise<Response> {
  if (!isSameOrigin(request.headers)) return page(403, "This form was sent from another site.");
  const form = await request.formData();
  // The page sent nothing of the kind: the form was made by hand, so no client's redirect is trusted.
  for (const [name, value] of form) {
    if (!isStorableText(name) || (typeof value === "string" && !isStorableText(value)))
      return page(400, "The form holds text that cannot be stored (U+0000 or a lone surrogate).");
  }
  const params = new URLSearchParams();
  for (const name of AUTHORIZE_PARAMS) {
    const value = form.get(name);
    if (typeof value === "string" && value !== "") params.set(name, value);
  }
  const member = await memberForRequest(await nextAuthRequest());
  if (!member) return seeOther(`/sign-in?next=${encodeURIComponent(consentPath(params))}`);
  const check = await checkAuthorizeRequest(params);
  if (check.kind === "show_error") return page(400, check.message);
  if (check.kind === "redirect_error") return seeOther(check.url);
  const { request: asked } = check;
  if (form.get("decision") !== "approve") {
    return seeOther(
      redirectWith(asked.redirectUri, {
        error: "access_denied",
        error_description: "The member declined.",
        state: asked.state,
      }),
    );
  }
  const chosen = form.getAll("scopes").map(String);
  const scopes = asked.scopes.filter((scope: Scope) => chosen.includes(scope));
  if (!scopes.length || chosen.some((scope) => !isScope(scope) || !asked.scopes.includes(scope))) {
    return seeOther(`${consentPath(params)}&consent_error=scopes`);
  }
  const parsed = parseCredentialLimits(form, await limitChoices(member.id));
  if (!parsed.ok)
    return seeOther(`${consentPath(params)}&consent_error=${parsed.field === "tools" ? "tools" : "collections"}`);
  const limits = parsed.limits ?? {};
  const { code } = await approveGrant({
    memberId: member.id,
    client: asked.client,
    redirectUri: asked.redirectUri,
    resource: asked.resource,
    scopes,
    limits,
    codeChallenge: asked.codeChallenge,
  });
  return seeOther(redirectWith(asked.redirectUri, { code, state: asked.state }));
}
