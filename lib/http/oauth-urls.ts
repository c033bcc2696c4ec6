import type { Env } from "../config/env.ts";
import { siteUrlFrom } from "./site-url.ts";

/**
 * Every URL of the authorization server and its protected resources, derived from the one public
 * origin (SITE_URL, lib/http/site-url.ts): the issuer, the endpoints, the three resources (RFC 8707
 * audiences) and where each resource's metadata is (RFC 9728, path inserted after /.well-known).
 */
export type ResourceName = "mcp" | "api" | "agent";

export const RESOURCE_PATHS: Readonly<Record<ResourceName, string>> = {
  mcp: "/api/mcp",
  api: "/api/v1",
  agent: "/api/agent",
};

export const OAUTH_PATHS = {
  authorize: "/oauth/authorize",
  token: "/oauth/token",
  register: "/oauth/register",
  revoke: "/oauth/revoke",
} as const;

const PRM = "/.well-known/oauth-protected-resource";

export function oauthUrls(env?: Env) {
  const origin = siteUrlFrom(env);
  const resource = (name: ResourceName) => `${origin}${RESOURCE_PATHS[name]}`;
  return {
    issuer: origin,
    authorize: `${origin}${OAUTH_PATHS.authorize}`,
    token: `${origin}${OAUTH_PATHS.token}`,
    register: `${origin}${OAUTH_PATHS.register}`,
    revoke: `${origin}${OAUTH_PATHS.revoke}`,
    resource,
    resourceMetadata: (name: ResourceName) => `${origin}${PRM}${RESOURCE_PATHS[name]}`,
    /** Which of our resources a resource indicator names, or undefined. */
    resourceNamed: (indicator: string): ResourceName | undefined =>
      (Object.keys(RESOURCE_PATHS) as ResourceName[]).find((name) => resource(name) === indicator),
  };
}

/**
 * The resource a protected resource metadata path describes: /…/api/mcp, /…/api/v1, /…/api/agent.
 * The root describes none: its document would be about the bare origin (RFC 9728 §3.3), which no
 * token is issued for.
 */
export function resourceForMetadataPath(rest: string): ResourceName | undefined {
  return (Object.keys(RESOURCE_PATHS) as ResourceName[]).find((name) => RESOURCE_PATHS[name] === rest);
}
