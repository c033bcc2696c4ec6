import { SCOPES } from "../../../registry/scopes.ts";
import { oauthUrls, type ResourceName, resourceForMetadataPath } from "../../http/oauth-urls.ts";
import { oauthJson } from "./respond.ts";

/** Besides our sixteen scopes: asked for by clients that want a refresh token (granted to every client). */
export const OFFLINE_ACCESS = "offline_access";

const RESOURCE_NAMES: Record<ResourceName, string> = {
  mcp: "Personal Data Service (MCP)",
  api: "Personal Data Service REST API",
  agent: "Personal Data Service tools",
};

/** RFC 9728 protected resource metadata of one of our resources. */
export function protectedResourceMetadata(name: ResourceName) {
  const urls = oauthUrls();
  return {
    resource: urls.resource(name),
    authorization_servers: [urls.issuer],
    scopes_supported: SCOPES,
    bearer_methods_supported: ["header"],
    resource_name: RESOURCE_NAMES[name],
    resource_documentation: `${urls.issuer}/docs/connect`,
  };
}

/** RFC 8414 authorization server metadata: every URL from the one public origin. */
export function authorizationServerMetadata() {
  const urls = oauthUrls();
  return {
    issuer: urls.issuer,
    authorization_endpoint: urls.authorize,
    token_endpoint: urls.token,
    registration_endpoint: urls.register,
    revocation_endpoint: urls.revoke,
    scopes_supported: [...SCOPES, OFFLINE_ACCESS],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    code_challenge_methods_supported: ["S256"],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${urls.issuer}/docs/connect`,
  };
}

/** GET /.well-known/oauth-protected-resource/api/mcp|/api/v1|/api/agent (the root: 404). */
export function handleProtectedResourceMetadata(request: Request, segments: readonly string[] = []): Response {
  const name = resourceForMetadataPath(segments.length ? `/${segments.join("/")}` : "");
  if (!name) {
    const paths = (Object.keys(RESOURCE_NAMES) as ResourceName[]).map(oauthUrls().resourceMetadata);
    return oauthJson(request, 404, {
      error: "not_found",
      error_description: `No protected resource at this path; the resources' metadata: ${paths.join(", ")}.`,
    });
  }
  return oauthJson(request, 200, protectedResourceMetadata(name), { "Cache-Control": "public, max-age=3600" });
}

/** GET /.well-known/oauth-authorization-server. */
export function handleAuthorizationServerMetadata(request: Request): Response {
  return oauthJson(request, 200, authorizationServerMetadata(), { "Cache-Control": "public, max-age=3600" });
}
