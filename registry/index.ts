import type { DirectiveSpec, OperationSpec, ResourceSpec } from "./define.ts";
import { listen } from "./directives/listen.ts";
import { openUrl } from "./directives/open-url.ts";
import { playSong } from "./directives/play-song.ts";
import { resolve } from "./operations/resolve.ts";
import { search } from "./operations/search.ts";
import { streaksCheckIn } from "./operations/streaks-check-in.ts";
import { uploads } from "./operations/uploads.ts";
import { collectionTypes } from "./resources/collection-types.ts";
import { collections } from "./resources/collections.ts";
import { channels } from "./resources/channels.ts";
import { follows } from "./resources/follows.ts";
import { goals } from "./resources/goals.ts";
import { items } from "./resources/items.ts";
import { messages } from "./resources/messages.ts";
import { profile } from "./resources/profile.ts";
import { streaks } from "./resources/streaks.ts";
import { todos } from "./resources/todos.ts";

/** The ten resources of the spec, in the spec's order. */
export const resources: readonly ResourceSpec[] = [
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
];

/** Capabilities beyond the five verbs. */
export const operations: readonly OperationSpec[] = [streaksCheckIn, uploads, resolve, search];

/** Tools the browser carries out. */
export const directives: readonly DirectiveSpec[] = [playSong, listen, openUrl];

export type { DirectiveSpec, FieldSpec, OperationSpec, ResourceSpec, Verb } from "./define.ts";
