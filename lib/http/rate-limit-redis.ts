import { createHash } from "node:crypto";
import { createClient } from "redis";
import { rateLimitClock } from "./rate-limit-clock.ts";
import { memoryStore } from "./rate-limit-memory.ts";
import type { BucketRequest, RateLimitStore, RateLimitStoreStatus, TakeResult } from "./rate-limit-store.ts";

/**
 * Checks and charges every bucket of a request in one atomic step, on Redis's clock (instances'
 * clocks may disagree). KEYS: the buckets; ARGV: capacity and refill per second for each, then
 * the test clock's shift in milliseconds (rate-limit-clock.ts; 0 in service).
 * Answers {allowed, level1, level2, ...}; levels travel as strings, since Lua numbers become
 * integers in Redis replies.
 */
const SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000 + (tonumber(ARGV[2 * #KEYS + 1]) or 0)
local levels = {}
local allowed = 1
for i, key in ipairs(KEYS) do
  local capacity = tonumber(ARGV[2 * i - 1])
  local rate = tonumber(ARGV[2 * i])
  local state = redis.call('HMGET', key, 'tokens', 'at')
  local tokens = tonumber(state[1]) or capacity
  local at = tonumber(state[2]) or now
  tokens = math.min(capacity, tokens + math.max(0, now - at) / 1000 * rate)
  levels[i] = tokens
  if tokens < 1 then allowed = 0 end
end
local reply = { tostring(allowed) }
for i, key in ipairs(KEYS) do
  local capacity = tonumber(ARGV[2 * i - 1])
  local rate = tonumber(ARGV[2 * i])
  local tokens = levels[i]
  if allowed == 1 then tokens = tokens - 1 end
  redis.call('HSET', key, 'tokens', tostring(tokens), 'at', tostring(now))
  redis.call('PEXPIRE', key, math.ceil((capacity - tokens) / rate * 1000) + 1000)
  reply[i + 1] = tostring(tokens)
end
return reply
`;
const SHA = createHash("sha1").update(SCRIPT).digest("hex");

/** How long the first request waits for the first connection before falling back. */
const FIRST_CONNECT_MS = 2000;
const COMMAND_TIMEOUT_MS = 500;

/**
 * Buckets in Redis, shared by every instance. When Redis is unreachable this store fails open to
 * this instance's memory buckets: limits still hold per instance, and a Redis outage does not
 * become an outage of the API. Each change of state is logged once, and status() tells health.
 */
export function redisStore(url: string): RateLimitStore {
  const fallback = memoryStore();
  const client = createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: COMMAND_TIMEOUT_MS },
    socket: { connectTimeout: 1000, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 5000) },
  });
  const where = url.replace(/\/\/[^@/]*@/, "//***@");
  let healthy: boolean | undefined;
  const mark = (ok: boolean, why?: string) => {
    if (healthy === ok) return;
    healthy = ok;
    if (ok) console.info(`[rate-limit] Redis at ${where} is in use`);
    else
      console.error(`[rate-limit] Redis at ${where} unreachable (${why}); limits fall back to this instance's memory`);
  };
  // node-redis emits 'error' on every failed reconnect; without a listener the process would die.
  client.on("error", (error: Error) => mark(false, error.message));
  client.on("ready", () => mark(true));
  // Settles at the first sign either way; later reconnects happen in the background.
  const firstConnect = new Promise<boolean>((resolve) => {
    client.once("ready", () => resolve(true));
    client.once("error", () => resolve(false));
    setTimeout(() => resolve(client.isReady), FIRST_CONNECT_MS).unref();
  });
  client.connect().catch((error: Error) => mark(false, error.message));

  async function ready(): Promise<boolean> {
    if (client.isReady) return true;
    if (healthy === undefined && !(await firstConnect)) mark(false, "no connection");
    return client.isReady;
  }

  return {
    kind: "redis",
    async take(requests: readonly BucketRequest[]): Promise<TakeResult> {
      if (!(await ready())) return fallback.take(requests);
      try {
        return parse(await run(requests));
      } catch (error) {
        mark(false, (error as Error).message);
        return fallback.take(requests);
      }
    },
    async status(): Promise<RateLimitStoreStatus> {
      return (await ready()) ? "redis" : "redis_unavailable";
    },
    async close() {
      if (client.isOpen) await client.close().catch(() => {});
      else client.destroy();
    },
  };

  async function run(requests: readonly BucketRequest[]): Promise<unknown> {
    const options = {
      keys: requests.map((request) => request.key),
      arguments: [
        ...requests.flatMap((request) => [String(request.capacity), String(request.refillPerSecond)]),
        String(rateLimitClock.offsetMs),
      ],
    };
    try {
      return await client.evalSha(SHA, options);
    } catch (error) {
      if (!String((error as Error).message).startsWith("NOSCRIPT")) throw error;
      return client.eval(SCRIPT, options);
    }
  }
}

function parse(reply: unknown): TakeResult {
  if (!Array.isArray(reply) || reply.length < 2) throw new Error(`unexpected rate-limit reply ${String(reply)}`);
  const [allowed, ...levels] = reply.map((value) => Number(String(value)));
  return { allowed: allowed === 1, levels };
}
