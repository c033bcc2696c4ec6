import type { DirectiveSpec, OperationSpec, ResourceSpec } from "./define.ts";
import { listen } from "./directives/listen.ts";
import { openUrl } from "./directives/open-url.ts";
import { playSong } from "./directives/play-song.ts";
import { catalogGet } from "./operations/catalog-get.ts";
import { eventsList } from "./operations/events.ts";
import { activityUndo } from "./operations/activity-undo.ts";
import { exportData } from "./operations/export.ts";
import { resolve } from "./operations/resolve.ts";
import { search } from "./operations/search.ts";
import { streaksCheckIn } from "./operations/streaks-check-in.ts";
import { uploads } from "./operations/uploads.ts";
import {
  webhookEndpointsDeliveriesList,
  webhookEndpointsDeliveriesRetry,
  webhookEndpointsPing,
  webhookEndpointsRedeliver,
  webhookEndpointsRotateSecret,
} from "./operations/webhooks.ts";
import { memberResources } from "./member-resources.ts";
import { webhookEndpoints } from "./webhook-endpoints.ts";

// Kept with their literal types for registry/tool-inputs.ts; exported widened for everyone else.
const resourceList = [...memberResources, webhookEndpoints] as const satisfies readonly ResourceSpec[];
const operationList = [
  streaksCheckIn,
  uploads,
  resolve,
  search,
  catalogGet,
  webhookEndpointsRotateSecret,
  webhookEndpointsPing,
  webhookEndpointsDeliveriesList,
  webhookEndpointsDeliveriesRetry,
  webhookEndpointsRedeliver,
  exportData,
  eventsList,
  activityUndo,
] as const satisfies readonly OperationSpec[];
const directiveList = [playSong, listen, openUrl] as const satisfies readonly DirectiveSpec[];
export type ResourceList = typeof resourceList;
export type OperationList = typeof operationList;
export type DirectiveList = typeof directiveList;

/** The member resources (member-resources.ts), then webhook endpoints. */
export const resources: readonly ResourceSpec[] = resourceList;

/** Capabilities beyond the five verbs. */
export const operations: readonly OperationSpec[] = operationList;

/** Tools the browser carries out. */
export const directives: readonly DirectiveSpec[] = directiveList;

export type { DirectiveSpec, FieldSpec, OperationSpec, ResourceSpec, Verb } from "./define.ts";
