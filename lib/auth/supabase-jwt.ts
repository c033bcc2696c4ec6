import { createRemoteJWKSet, decodeProtectedHeader, type JWTPayload, jwtVerify } from "jose";
import { isUuid } from "../../registry/fields.ts";
import type { SupabaseAuthConfig } from "./supabase-config.ts";

export interface SupabaseClaims {
  /** The auth.users id: the member. */
  sub: string;
  /** GoTrue's session id, the same across refreshes of one sign-in. */
  sessionId: string;
  expiresAt: Date;
}

const jwksByUrl = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

/** jose caches the key set and refetches it when a token names a key id it has not seen (rotation). */
function jwks(url: string) {
  let set = jwksByUrl.get(url);
  if (!set) {
    set = createRemoteJWKSet(new URL(`${url}/auth/v1/.well-known/jwks.json`), { cooldownDuration: 30_000 });
    jwksByUrl.set(url, set);
  }
  return set;
}

/**
 * Verifies a Supabase access token before the service acts as its subject: asymmetric keys (ES256,
 * RS256, EdDSA) against the project's JWKS, or the legacy HS256 shared secret when one is set.
 * The issuer is the project's Auth URL and the role must be `authenticated`; null otherwise.
 */
export async function verifySupabaseJwt(token: string, config: SupabaseAuthConfig): Promise<SupabaseClaims | null> {
  let payload: JWTPayload;
  try {
    const { alg } = decodeProtectedHeader(token);
    const options = { issuer: `${config.url}/auth/v1`, audience: "authenticated" };
    if (alg === "HS256") {
      if (!config.jwtSecret) return null;
      ({ payload } = await jwtVerify(token, new TextEncoder().encode(config.jwtSecret), {
        ...options,
        algorithms: ["HS256"],
      }));
    } else {
      ({ payload } = await jwtVerify(token, jwks(config.url), { ...options, algorithms: ["ES256", "RS256", "EdDSA"] }));
    }
  } catch {
    return null;
  }
  const sessionId = typeof payload.session_id === "string" ? payload.session_id : "";
  if (payload.role !== "authenticated" || !payload.sub || !isUuid(payload.sub) || !isUuid(sessionId)) return null;
  if (payload.is_anonymous === true) return null;
  return { sub: payload.sub, sessionId, expiresAt: new Date((payload.exp ?? 0) * 1000) };
}
