import type { ResourceSpec } from "./define.ts";
import { channels } from "./resources/channels.ts";
import { collectionTypes } from "./resources/collection-types.ts";
import { collections } from "./resources/collections.ts";
import { follows } from "./resources/follows.ts";
import { goals } from "./resources/goals.ts";
import { items } from "./resources/items.ts";
import { messages } from "./resources/messages.ts";
import { profile } from "./resources/profile.ts";
import { streaks } from "./resources/streaks.ts";
import { todos } from "./resources/todos.ts";

/**
 * The members' own data, in registry order: every resource but webhook endpoints, which is
 * about this data and validates its event kinds against events.ts, which reads this list (so the
 * list lives here, not in index.ts: index.ts → webhook-endpoints → events.ts would be a cycle).
 */
export const memberResources = [
  collections,
  items,
  todos,
  goals,
  streaks,
  messages,
  follows,
  channels,
  collectionTypes,
  profile,
] as const satisfies readonly ResourceSpec[];
