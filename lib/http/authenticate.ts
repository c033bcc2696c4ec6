import type { Scope } from "../../registry/scopes.ts";
import type { Caller, TokenCaller } from "../auth/caller.ts";
import { authenticateToken } from "../auth/tokens.ts";
import { ApiError } from "./problem.ts";

const CHALLENGE = { "WWW-Authenticate": 'Bearer realm="pds"' };

/** Bearer token → the member it stands for. Every failure is the same 401, so nothing leaks. */
export async function authenticate(headers: Headers): Promise<TokenCaller> {
  const header = headers.get("authorization");
  if (!header) throw new ApiError("unauthorized", "Send Authorization: Bearer <token>.", { headers: CHALLENGE });
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const caller = match?.[1] ? await authenticateToken(match[1]) : null;
  if (!caller) throw invalidToken();
  return caller;
}

export const invalidToken = () =>
  new ApiError("unauthorized", "The token is malformed, unknown, expired or revoked.", {
    headers: { "WWW-Authenticate": 'Bearer realm="pds", error="invalid_token"' },
  });

export function authorize(caller: Caller, scope: Scope): void {
  authorizeAny(caller, [scope]);
}

/** Passes when the token holds at least one of the scopes (a capability whose input picks its scope). */
export function authorizeAny(caller: Caller, scopes: readonly Scope[]): void {
  if (!scopes.some((scope) => caller.scopes.has(scope))) {
    const needs = scopes.length === 1 ? `the scope ${scopes[0]}` : `one of the scopes ${scopes.join(", ")}`;
    throw new ApiError("insufficient_scope", `This token lacks ${needs}.`, {
      headers: { "WWW-Authenticate": `Bearer realm="pds", error="insufficient_scope", scope="${scopes.join(" ")}"` },
    });
  }
}

