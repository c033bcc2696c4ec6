/**
 * Compile-time proof, checked by `npm run typecheck` (tsc covers every file): the handler map
 * rejects a missing handler and a handler whose input its tool does not have. Each
 * @ts-expect-error fails the typecheck if the line below it ever compiles.
 */
import type { VerbContext } from "@/lib/domain/context";
import { type HandlerMap, handlers } from "@/lib/domain/handlers";

const { streaks_check_in: _checkIn, ...withoutCheckIn } = handlers;
// @ts-expect-error streaks_check_in has no handler
export const missing: HandlerMap = withoutCheckIn;

export const mistyped: HandlerMap = {
  ...handlers,
  // @ts-expect-error search has no input "phrase"
  search: async ({ input }: VerbContext<{ phrase: string }>) => input.phrase,
};

export const wellTyped: HandlerMap = {
  ...handlers,
  search: async ({ input }: VerbContext<{ query: string; limit?: number }>) => input.query,
};
