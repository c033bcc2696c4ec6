import type { Capability } from "../../registry/capabilities.ts";
import type { ResourceSpec } from "../../registry/define.ts";
import { type ResourceList, resources } from "../../registry/index.ts";
import type { ResourceTools, ToolInput, ToolName } from "../../registry/tool-inputs.ts";
import { undoActivity } from "./activity/undo.ts";
import { checkInStreak } from "./check-in.ts";
import { listCollectionTypes, updateCollectionTypes } from "./collection-types.ts";
import type { Handler } from "./context.ts";
import { genericHandler } from "./crud.ts";
import { listen, openUrl, playSong } from "./directives.ts";
import { listEvents } from "./event-log.ts";
import { exportAll } from "./export.ts";
import { getProfile, updateProfile } from "./profile.ts";
import { catalogGet, resolve, search } from "./catalog-handlers.ts";
import { mintUpload } from "./uploads/mint.ts";
import { listDeliveries, pingEndpoint, redeliverSince, retryDelivery } from "./webhooks/deliveries.ts";
import { createWebhookEndpoint, rotateWebhookSecret, updateWebhookEndpoint } from "./webhooks/endpoints.ts";

export type HandlerMap = { readonly [T in ToolName]: Handler<ToolInput<T>> };

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** The generic verbs of every resource, under their tool names: what a new resource gets with no edit here. */
type CrudHandlers = UnionToIntersection<
  ResourceList[number] extends infer R
    ? R extends ResourceSpec
      ? { [T in keyof ResourceTools<R>]: Handler<ResourceTools<R>[T]> }
      : never
    : never
>;

const crud = Object.fromEntries(
  resources.flatMap((resource) =>
    resource.verbs.map((verb) => [`${resource.toolPrefix}_${verb}`, genericHandler(resource, verb)]),
  ),
) as unknown as CrudHandlers;

/**
 * Every capability's handler, keyed by tool name. The type requires exactly one handler per tool
 * the registry declares, each accepting that tool's input: a capability without a handler, or a
 * handler expecting an input its tool does not have, does not compile.
 */
export const handlers: HandlerMap = {
  ...crud,
  // Where a verb does more than the generic one.
  collection_types_list: listCollectionTypes,
  collection_types_update: updateCollectionTypes,
  profile_get: getProfile,
  profile_update: updateProfile,
  streaks_check_in: checkInStreak,
  uploads_create: mintUpload,
  resolve,
  search,
  catalog_get: catalogGet,
  export: exportAll,
  play_song: playSong,
  listen,
  open_url: openUrl,
  // Create answers the secret once; both check the url's scheme first.
  webhook_endpoints_create: createWebhookEndpoint,
  webhook_endpoints_update: updateWebhookEndpoint,
  webhook_endpoints_rotate_secret: rotateWebhookSecret,
  webhook_endpoints_ping: pingEndpoint,
  webhook_endpoints_deliveries_list: listDeliveries,
  webhook_endpoints_deliveries_retry: retryDelivery,
  webhook_endpoints_redeliver: redeliverSince,
  events_list: listEvents,
  activity_undo: undoActivity,
};

/** The handler of a capability; its input was parsed by the capability's schema, which the map's types mirror. */
export function handlerFor(capability: Capability): Handler {
  const handler = handlers[capability.tool] as Handler | undefined;
  if (handler) return handler;
  // A resource declared after this module was typed (the fixture resource of the tests) takes the generic verbs.
  const source = capability.source;
  if (source.kind === "resource") return genericHandler(source.resource, source.verb) as Handler;
  throw new Error(`no handler for ${capability.tool}`);
}
