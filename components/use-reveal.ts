"use client";

import { type RefObject, useEffect } from "react";

/**
 * After a form reveals a one-time secret: scroll its card to the top of the view and put focus on
 * the secret, so it is what a person sees (phone or desktop) and what a screen reader reads next.
 * Without this the page stays where the submit button was, over a form React has just emptied.
 */
export function useReveal(
  card: RefObject<HTMLElement | null>,
  secret: RefObject<HTMLInputElement | null>,
  trigger: unknown,
): void {
  useEffect(() => {
    if (!trigger) return;
    card.current?.scrollIntoView({ block: "start" });
    secret.current?.focus({ preventScroll: true });
    secret.current?.select();
  }, [card, secret, trigger]);
}
