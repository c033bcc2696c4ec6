import { capabilityByTool } from "../../registry/capabilities.ts";
import { requestIdFrom } from "../http/request-id.ts";
import { zipResponse } from "../http/zip.ts";
import { isSameOrigin } from "./csrf.ts";
import { currentMember, memberCaller } from "./session.ts";
import { callAsSession } from "./session-call.ts";

/**
 * The Export button of /settings/account: a plain form POST (works without JavaScript) answered
 * with the same archive as GET /api/v1/export, produced by the same capability as the session.
 * POST and the same-origin check, because a cross-site GET must not start a download of it all.
 */
export async function exportDownload(request: Request): Promise<Response> {
  const requestId = requestIdFrom(request.headers);
  if (!isSameOrigin(request.headers)) return new Response("Cross-site request refused.", { status: 403 });
  const member = await currentMember();
  if (!member) return Response.redirect(new URL("/sign-in", request.url), 303);
  const capability = capabilityByTool.get("export");
  const result = await callAsSession(memberCaller(member), "export", {}, request.headers);
  if (!capability || !result.ok) {
    return new Response(result.ok ? "Export failed." : result.problem.detail, {
      status: result.ok ? 500 : result.problem.status,
    });
  }
  const files = (result.body as { files: Record<string, unknown> }).files;
  return zipResponse(files, `pds-export-${new Date().toISOString().slice(0, 10)}.zip`, requestId);
}
