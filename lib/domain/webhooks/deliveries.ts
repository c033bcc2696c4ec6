import { webhookDelivery } from "../../../registry/operations/webhooks.ts";
import type { Queryable } from "../../db/index.ts";
import { DomainError } from "../../errors/domain-error.ts";
import type { ToolHandler } from "../context.ts";
import { keysetPage } from "../../http/pagination.ts";

type Row = { r: Record<string, unknown> };

/** A delivery as the API answers it: the registry's columns, next_attempt_at only while pending. */
const DELIVERY_COLUMNS = Object.keys(webhookDelivery.shape).map((name) =>
  name === "next_attempt_at"
    ? "case when t.status = 'pending' then t.next_attempt_at end as next_attempt_at"
    : `t."${name}"`,
);

const endpointNotFound = () =>
  new DomainError("not_found", "No webhook endpoint with this id is visible to this token.");

async function assertEndpoint(tx: Queryable, id: string) {
  const rows = await tx.query("select 1 from public.webhook_endpoints where id = $1", [id]);
  if (rows.length === 0) throw endpointNotFound();
}

async function deliveryById(ctx: { tx: Queryable }, endpointId: string, id: string) {
  const [row] = await ctx.tx.query<Row>(
    `select row_to_json(r) as r from public.webhook_deliveries t cross join lateral (select ${DELIVERY_COLUMNS.join(", ")}) r
      where t.id = $1 and t.endpoint_id = $2`,
    [id, endpointId],
  );
  if (!row) throw new DomainError("not_found", "No delivery with this id is visible to this token.");
  return row.r;
}

export const listDeliveries: ToolHandler<"webhook_endpoints_deliveries_list"> = async ({ tx, input }) => {
  await assertEndpoint(tx, input.id);
  const query = { from: "public.webhook_deliveries", where: ["t.endpoint_id = $1"], params: [input.id] as unknown[] };
  if (input.status) {
    query.params.push(input.status);
    query.where.push(`t.status = $${query.params.length}`);
  }
  return keysetPage(tx, query, input, DELIVERY_COLUMNS);
};

export const pingEndpoint: ToolHandler<"webhook_endpoints_ping"> = async (ctx) => {
  const [row] = await ctx.tx.query<{ id: string | null }>("select app_private.ping_webhook_endpoint($1) as id", [
    ctx.input.id,
  ]);
  if (!row?.id) throw endpointNotFound();
  return deliveryById(ctx, ctx.input.id, row.id);
};

export const retryDelivery: ToolHandler<"webhook_endpoints_deliveries_retry"> = async (ctx) => {
  // The function matches endpoint, delivery and owner at once: one 404 for any of them.
  const [row] = await ctx.tx.query<{ ok: boolean }>("select app_private.retry_webhook_delivery($1, $2) as ok", [
    ctx.input.id,
    ctx.input.delivery_id,
  ]);
  if (!row?.ok) throw new DomainError("not_found", "No such delivery of a webhook endpoint visible to this token.");
  return deliveryById(ctx, ctx.input.id, ctx.input.delivery_id);
};

export const redeliverSince: ToolHandler<"webhook_endpoints_redeliver"> = async ({ tx, input }) => {
  const [row] = await tx.queryCommit<{ queued: number; since: string }>(
    "select r.queued, to_jsonb(r.since) #>> '{}' as since from app_private.redeliver_webhook_events($1, $2) r",
    [input.id, input.since],
  );
  if (!row) throw endpointNotFound();
  return { endpoint_id: input.id, since: row.since, queued: row.queued };
};
