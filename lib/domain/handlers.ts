import type { Capability } from "../../registry/capabilities.ts";
import { checkInStreak } from "./check-in.ts";
import { listCollectionTypes, updateCollectionTypes } from "./collection-types.ts";
import type { Handler } from "./context.ts";
import { listen, openUrl, playSong } from "./directives.ts";
import { genericHandler } from "./crud.ts";
import { getProfile, updateProfile } from "./profile.ts";
import { resolve } from "./resolver/resolve.ts";
import { search } from "./search.ts";
import { mintUpload } from "./uploads/mint.ts";

/**
 * Capabilities whose behaviour the generic verbs cannot express, keyed by tool name. Every other
 * resource verb runs the generic handler; operations and directives must appear here (a contract
 * test checks that every capability resolves to a handler).
 */
export const SPECIAL_HANDLERS: Record<string, Handler> = {
  profile_get: getProfile,
  profile_update: updateProfile,
  collection_types_list: listCollectionTypes,
  collection_types_update: updateCollectionTypes,
  uploads_create: mintUpload,
  streaks_check_in: checkInStreak,
  resolve,
  search,
  play_song: playSong,
  listen,
  open_url: openUrl,
};

export function handlerFor(capability: Capability): Handler | undefined {
  const special = SPECIAL_HANDLERS[capability.tool];
  if (special) return special;
  if (capability.source.kind === "resource") return genericHandler(capability.source.resource, capability.source.verb);
  return undefined;
}
