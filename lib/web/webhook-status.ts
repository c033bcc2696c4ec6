/**
 * The health line the webhooks settings page shows for an endpoint. failing_since (the API's field)
 * starts at the first failed attempt, because the 5-day disable counts from there; but one failed
 * test ping or one hiccup is not "Failing". The page says Failing only after this many failed
 * attempts in a row (across deliveries, newest first, back to the last delivered one).
 */
export const FAILING_AFTER_ATTEMPTS = 3;

export interface EndpointHealthInput {
  enabled: boolean;
  failing_since: string | null;
}

export interface DeliveryHealthInput {
  status: string;
  attempts: number;
  last_error: string | null;
}

export type EndpointHealth =
  | { state: "ok" }
  | { state: "disabled" }
  | { state: "retrying"; failedAttempts: number }
  | { state: "failing"; since: string; failedAttempts: number };

/** Failed attempts in a row: deliveries newest first, up to the latest one delivered. */
export function failedAttemptsInARow(newestFirst: readonly DeliveryHealthInput[]): number {
  let count = 0;
  for (const delivery of newestFirst) {
    if (delivery.status === "delivered") break;
    // last_error is set exactly when the latest attempt failed; a delivery not yet tried counts 0.
    if (delivery.last_error !== null) count += delivery.attempts;
  }
  return count;
}

export function endpointHealth(
  endpoint: EndpointHealthInput,
  newestFirst: readonly DeliveryHealthInput[],
): EndpointHealth {
  if (!endpoint.enabled) return { state: "disabled" };
  if (!endpoint.failing_since) return { state: "ok" };
  const failedAttempts = failedAttemptsInARow(newestFirst);
  return failedAttempts >= FAILING_AFTER_ATTEMPTS
    ? { state: "failing", since: endpoint.failing_since, failedAttempts }
    : { state: "retrying", failedAttempts };
}
