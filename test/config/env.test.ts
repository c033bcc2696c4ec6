import { describe, expect, it } from "vitest";
import { envSchema, setting } from "../../lib/config/env.ts";

describe("the environment schema (lib/config/env.ts)", () => {
  it("gives each variable's default when unset or empty, and keeps what was given", () => {
    expect(setting("PORT", {})).toBe("3000");
    expect(setting("DATABASE_POOL_MAX", { DATABASE_POOL_MAX: "" })).toBe(10);
    expect(setting("DATABASE_POOL_MAX", { DATABASE_POOL_MAX: "4" })).toBe(4);
    expect(setting("S3_REGION", { S3_REGION: "  " })).toBe("us-east-1");
    expect(setting("S3_BUCKET", { S3_BUCKET: " media " })).toBe("media");
    expect(setting("S3_BUCKET", { S3_BUCKET: " " })).toBeUndefined();
  });

  it("falls back on a number it cannot read, as the code always did, but refuses a bad TRUSTED_PROXY_HOPS", () => {
    expect(setting("RESOLVER_DEADLINE_MS", { RESOLVER_DEADLINE_MS: "soon" })).toBe(2500);
    expect(setting("RESOLVER_DEADLINE_MS", { RESOLVER_DEADLINE_MS: "-1" })).toBe(2500);
    expect(setting("RATE_LIMIT_CAPACITY", { RATE_LIMIT_CAPACITY: "0" })).toBe(30);
    expect(setting("TRUSTED_PROXY_HOPS", { TRUSTED_PROXY_HOPS: "2" })).toBe(2);
    expect(() => setting("TRUSTED_PROXY_HOPS", { TRUSTED_PROXY_HOPS: "11" })).toThrow(
      /whole number from 0 to 10, not "11"/,
    );
  });

  it("reads switches as before: off, false, main, any value", () => {
    expect(setting("WEBHOOKS_WORKER", {})).toBe(true);
    expect(setting("WEBHOOKS_WORKER", { WEBHOOKS_WORKER: "off" })).toBe(false);
    expect(setting("DATABASE_PREPARE", { DATABASE_PREPARE: "false" })).toBe(false);
    expect(setting("PGLITE_THREAD", { PGLITE_THREAD: "main" })).toBe("main");
    expect(setting("WEBHOOKS_ALLOW_HTTP", { WEBHOOKS_ALLOW_HTTP: "1" })).toBe(true);
    expect(setting("TOKEN_CACHE_SECONDS", {})).toBeUndefined();
    expect(setting("TOKEN_CACHE_SECONDS", { TOKEN_CACHE_SECONDS: "x" })).toBe(0);
    expect(setting("WEBHOOKS_ENDPOINTS", { WEBHOOKS_ENDPOINTS: "a, ,b" })).toEqual(["a", "b"]);
  });

  it("describes every variable, for docs/configuration.md", () => {
    for (const [name, schema] of Object.entries(envSchema.shape)) {
      const meta = schema.meta() as { description?: string; section?: string; type?: string } | undefined;
      expect({ name, described: Boolean(meta?.description && meta.section && meta.type) }).toEqual({
        name,
        described: true,
      });
    }
  });
});
