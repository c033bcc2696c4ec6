import { WEBHOOK_LIMITS } from "../../../registry/events.ts";
import { webhookEndpoints } from "../../../registry/webhook-endpoints.ts";
import { DomainError } from "../../errors/domain-error.ts";
import { assertWebhookUrl, NotHttpsError } from "../../net/webhook-url.ts";
import type { Handler, ToolHandler, VerbContext } from "../context.ts";
import { genericHandler, genericStep } from "../crud.ts";
import { webhookClock } from "./clock.ts";
import { encryptSecret, newWebhookSecret } from "./secrets.ts";

const refuse = (message: string) =>
  new DomainError("invalid_request", message, { errors: [{ pointer: "/url", code: "invalid_url", message }] });

/** The endpoint URL rule (lib/net/webhook-url.ts), as a 422 on the url field. */
export function checkEndpointUrl(value: unknown): void {
  if (typeof value !== "string") return;
  const url = new URL(value);
  try {
    assertWebhookUrl(url);
  } catch (error) {
    if (error instanceof NotHttpsError) throw refuse("The endpoint url must use https.");
    throw refuse("The endpoint url points at a private, loopback or reserved address.");
  }
}

const notFound = () => new DomainError("not_found", "No webhook endpoint with this id is visible to this token.");

/** Stores a new secret for the endpoint, keeping the old one valid for a while when rotating. */
async function storeSecret(ctx: Pick<VerbContext, "tx">, endpointId: string, keepPrevious: boolean): Promise<string> {
  const secret = newWebhookSecret();
  const until = keepPrevious
    ? new Date(webhookClock.now().getTime() + WEBHOOK_LIMITS.previousSecretHours * 3600_000).toISOString()
    : null;
  const [row] = await ctx.tx.query<{ ok: boolean }>("select app_private.set_webhook_secret($1, $2, $3) as ok", [
    endpointId,
    encryptSecret(secret, endpointId),
    until,
  ]);
  if (!row?.ok) throw notFound();
  return secret;
}

const createGeneric = genericStep(webhookEndpoints, "create");
const updateGeneric = genericHandler(webhookEndpoints, "update");

export const createWebhookEndpoint: Handler = async (ctx) => {
  checkEndpointUrl(ctx.input.url);
  const record = (await createGeneric(ctx)) as Record<string, unknown>;
  return { ...record, secret: await storeSecret(ctx, String(record.id), false) };
};

export const updateWebhookEndpoint: Handler = async (ctx) => {
  checkEndpointUrl(ctx.input.url);
  return updateGeneric(ctx);
};

export const rotateWebhookSecret: ToolHandler<"webhook_endpoints_rotate_secret"> = async (ctx) => {
  const get = genericStep(webhookEndpoints, "get");
  const record = (await get(ctx as unknown as VerbContext)) as Record<string, unknown>;
  return { ...record, secret: await storeSecret(ctx, ctx.input.id, true) };
};
