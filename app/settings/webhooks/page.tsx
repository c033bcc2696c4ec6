import type { Metadata } from "next";
import { headers } from "next/headers";
import { SubmitButton } from "@/components/submit-button";
import { WebhookCreateForm, WebhookRotateForm } from "@/components/webhook-forms";
import { formatDateTime } from "@/lib/web/format";
import { endpointHealth } from "@/lib/web/webhook-status";
import { memberCaller, requireMember } from "@/lib/web/session";
import { callAsSession } from "@/lib/web/session-call";
import {
  createWebhookAction,
  deleteWebhookAction,
  pingWebhookAction,
  retryDeliveryAction,
  rotateWebhookAction,
  toggleWebhookAction,
} from "./actions";

export const metadata: Metadata = { title: "Webhooks · Personal Data Service" };

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  description: string;
  failing_since: string | null;
  disabled_reason: string | null;
}

interface Delivery {
  id: string;
  event_type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  duration_ms: number | null;
}

export default async function WebhooksPage() {
  const member = await requireMember();
  const requestHeaders = await headers();
  const caller = memberCaller(member);
  const list = await callAsSession(caller, "webhook_endpoints_list", {}, requestHeaders);
  if (!list.ok) throw new Error(`webhook_endpoints_list failed: ${list.problem.detail}`);
  const endpoints = (list.body as { data: Endpoint[] }).data;
  const logs = await Promise.all(
    endpoints.map(async (endpoint) => {
      const page = await callAsSession(
        caller,
        "webhook_endpoints_deliveries_list",
        { id: endpoint.id, limit: 20 },
        requestHeaders,
      );
      return page.ok ? (page.body as { data: Delivery[] }).data : [];
    }),
  );
  return (
    <>
      <h1>Webhooks</h1>
      <p className="lead">
        Your changes, POSTed to your own URL as they commit: signed (Standard Webhooks and{" "}
        <code>X-Service-Signature</code>
        ), retried for about a day and a half, at least once. See the <a href="/docs#webhooks">event reference</a>.
      </p>
      <WebhookCreateForm action={createWebhookAction} />
      <section aria-labelledby="endpoints-heading">
        <h2 id="endpoints-heading">Your endpoints</h2>
        {endpoints.length === 0 && <p className="muted">No endpoints yet.</p>}
        {endpoints.map((endpoint, index) => (
          <article key={endpoint.id} className="card stack" data-testid="webhook-endpoint">
            <h3>
              <code>{endpoint.url}</code> {!endpoint.enabled && <span className="badge">disabled</span>}
            </h3>
            {endpoint.description && <p>{endpoint.description}</p>}
            {endpoint.disabled_reason && (
              <p role="status" className="error" data-testid="disabled-reason">
                {endpoint.disabled_reason}
              </p>
            )}
            <HealthLine health={endpointHealth(endpoint, logs[index] ?? [])} />
            <ul className="tags">
              {endpoint.events.map((type) => (
                <li key={type}>{type === "*" ? "all events" : type}</li>
              ))}
            </ul>
            <div className="row">
              <form action={pingWebhookAction}>
                <input type="hidden" name="id" value={endpoint.id} />
                <SubmitButton variant="quiet">Send test event</SubmitButton>
              </form>
              <form action={toggleWebhookAction}>
                <input type="hidden" name="id" value={endpoint.id} />
                <input type="hidden" name="enabled" value={String(!endpoint.enabled)} />
                <SubmitButton variant="quiet">{endpoint.enabled ? "Disable" : "Enable"}</SubmitButton>
              </form>
              <WebhookRotateForm action={rotateWebhookAction} id={endpoint.id} />
              <form action={deleteWebhookAction}>
                <input type="hidden" name="id" value={endpoint.id} />
                <SubmitButton variant="danger">Delete</SubmitButton>
              </form>
            </div>
            <h4>Recent deliveries</h4>
            {(logs[index] ?? []).length === 0 ? (
              <p className="muted">None yet.</p>
            ) : (
              <div className="table-wrap">
                <table className="stacked" data-testid="delivery-log">
                  <thead>
                    <tr>
                      <th scope="col">Event</th>
                      <th scope="col">Status</th>
                      <th scope="col">Attempts</th>
                      <th scope="col">Last answer</th>
                      <th scope="col">Next attempt</th>
                      <th scope="col">Created</th>
                      <th scope="col">
                        <span className="visually-hidden">Action</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {(logs[index] ?? []).map((delivery) => (
                      <tr key={delivery.id} data-testid="delivery-row">
                        <th scope="row">{delivery.event_type}</th>
                        <td data-label="Status">{delivery.status}</td>
                        <td data-label="Attempts">{delivery.attempts}</td>
                        <td data-label="Last answer">
                          {delivery.last_status_code ?? delivery.last_error ?? "—"}
                          {delivery.duration_ms !== null && ` (${delivery.duration_ms} ms)`}
                        </td>
                        <td data-label="Next attempt">
                          {delivery.next_attempt_at ? formatDateTime(delivery.next_attempt_at) : "—"}
                        </td>
                        <td data-label="Created">{formatDateTime(delivery.created_at)}</td>
                        <td>
                          <form action={retryDeliveryAction}>
                            <input type="hidden" name="id" value={endpoint.id} />
                            <input type="hidden" name="delivery_id" value={delivery.id} />
                            <SubmitButton variant="quiet">
                              Retry<span className="visually-hidden"> {delivery.event_type}</span>
                            </SubmitButton>
                          </form>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </article>
        ))}
      </section>
    </>
  );
}

function HealthLine({ health }: { health: ReturnType<typeof endpointHealth> }) {
  if (health.state === "failing") {
    return (
      <p className="error" data-testid="endpoint-health">
        Failing since {formatDateTime(health.since)}: the last {health.failedAttempts} attempts failed.
      </p>
    );
  }
  if (health.state === "retrying") {
    return (
      <p className="muted" data-testid="endpoint-health">
        The last attempt failed; it will be retried (see the log below).
      </p>
    );
  }
  return null;
}
