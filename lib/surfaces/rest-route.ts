import { rest, restOptions } from "./api-routes.ts";

type Context = { params: Promise<{ path?: string[] }> };

/**
 * The REST surface as Next route handlers: for the [...path] catch-all (the path from its
 * params), or for one fixed path of the registry (app/api/v1/<path>/route.ts, generated).
 * Every verb is routed, so a verb the registry does not offer gets our 405 with its Allow.
 */
export function restRoute(fixed?: readonly string[]) {
  const pathOf = async (context: Context) => fixed ?? (await context.params).path ?? [];
  const handle = async (request: Request, context: Context) => rest(request, await pathOf(context));
  const options = async (request: Request, context: Context) => restOptions(request, await pathOf(context));
  return { GET: handle, POST: handle, PATCH: handle, PUT: handle, DELETE: handle, OPTIONS: options };
}
