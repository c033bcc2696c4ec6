import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asService } from "@/lib/db";
import { api } from "../support/api";
import { makeMember } from "../support/factories";
import { S3_CREDENTIALS, startFakeS3 } from "./support/fake-s3";
import { verifyPresignedUrl } from "./support/sigv4";
import { mint, restoreEnv } from "./support/storage";

const BUCKET = "pds-media";
const ENV = ["S3_BUCKET", "S3_ENDPOINT", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const;
const saved = Object.fromEntries(ENV.map((name) => [name, process.env[name]]));
let s3: Awaited<ReturnType<typeof startFakeS3>>;

beforeAll(async () => {
  s3 = await startFakeS3(BUCKET);
  Object.assign(process.env, {
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: s3.endpoint,
    S3_REGION: "eu-central-1",
    S3_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId,
    S3_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey,
  });
});
afterAll(async () => {
  for (const name of ENV) restoreEnv(name, saved[name]);
  await s3.close();
});

const status = async (key: string) =>
  (
    await asService((tx) =>
      tx.query<{ status: string }>("select status from app_private.uploads where key = $1", [key]),
    )
  )[0]?.status;

describe("S3 driver: the presigned PUT", () => {
  it("signs bucket, key, expiry, Content-Type and Content-Length with SigV4", async () => {
    const ada = await makeMember({ plan: "pro" });
    const minted = await mint(ada.token, "attachment", "audio/mpeg", 123_456);
    const url = new URL(minted.url);
    expect(url.origin).toBe(s3.endpoint);
    expect(url.pathname).toBe(`/${BUCKET}/${minted.key}`);
    expect([...url.searchParams.keys()].filter((k) => /checksum/i.test(k))).toEqual([]);
    expect(minted.headers).toEqual({ "Content-Type": "audio/mpeg", "Content-Length": "123456" });

    const check = verifyPresignedUrl("PUT", minted.url, minted.headers, S3_CREDENTIALS);
    expect(check.valid).toBe(true);
    expect(check.signedHeaders).toEqual(["content-length", "content-type", "host"]);
    expect(check.expiresSeconds).toBe(600);
    expect(check.signedAt.getTime() + 600_000).toBe(Date.parse(minted.expires_at));
    expect(check.credentialScope).toMatch(/^\d{8}\/eu-central-1\/s3\/aws4_request$/);

    const verify = (headers: Record<string, string>, href = minted.url, secret = S3_CREDENTIALS.secretAccessKey) =>
      verifyPresignedUrl("PUT", href, headers, { ...S3_CREDENTIALS, secretAccessKey: secret }).valid;
    expect(verify({ ...minted.headers, "Content-Length": "123457" })).toBe(false);
    expect(verify({ ...minted.headers, "Content-Type": "audio/ogg" })).toBe(false);
    expect(verify(minted.headers, minted.url, "another-secret")).toBe(false);
    expect(
      verify(minted.headers, minted.url.replace(minted.key, "attachment/00000000-0000-4000-8000-000000000000")),
    ).toBe(false);
    expect(verify(minted.headers, minted.url.replace("X-Amz-Expires=600", "X-Amz-Expires=6000"))).toBe(false);
  });
});

describe("S3 driver: end to end against a local S3 endpoint", () => {
  it("accepts the exact bytes, then completes the upload on first use (HeadObject)", async () => {
    const ada = await makeMember({ plan: "pro" });
    const bytes = "not really a png";
    const minted = await mint(ada.token, "avatar", "image/png", bytes.length);
    const wrongSize = await fetch(minted.url, {
      method: "PUT",
      headers: { "Content-Type": "image/png" },
      body: `${bytes}!`,
    });
    expect(wrongSize.status).toBe(403);
    const put = await fetch(minted.url, { method: "PUT", headers: minted.headers, body: bytes });
    expect(put.status).toBe(200);
    expect(s3.objects.get(minted.key)?.body.toString()).toBe(bytes);
    expect(await status(minted.key)).toBe("pending");

    const profile = await api("PATCH", "/profile", { token: ada.token, body: { avatar_key: minted.key } });
    expect(profile.status).toBe(200);
    expect(profile.body.avatar_key).toBe(minted.key);
    expect(await status(minted.key)).toBe("complete");
  });

  it("refuses a key whose object never arrived", async () => {
    const ada = await makeMember({ plan: "pro" });
    const minted = await mint(ada.token, "avatar", "image/png", 10);
    const profile = await api("PATCH", "/profile", { token: ada.token, body: { avatar_key: minted.key } });
    expect(profile.status).toBe(403);
    expect(profile.body.reason.message).toMatch(/has not been uploaded yet/);
    expect(await status(minted.key)).toBe("pending");
  });

  it("answers 502 when the store cannot be asked, and leaves the upload pending", async () => {
    const ada = await makeMember({ plan: "pro" });
    const minted = await mint(ada.token, "avatar", "image/png", 4);
    process.env.S3_ENDPOINT = "http://127.0.0.1:9";
    try {
      const profile = await api("PATCH", "/profile", { token: ada.token, body: { avatar_key: minted.key } });
      expect(profile.status).toBe(502);
      expect(profile.body.code).toBe("upstream_unavailable");
    } finally {
      process.env.S3_ENDPOINT = s3.endpoint;
    }
    expect(await status(minted.key)).toBe("pending");
  });

  it("does not complete another member's upload on their behalf", async () => {
    const ada = await makeMember({ plan: "pro" });
    const eve = await makeMember({ plan: "pro" });
    const minted = await mint(eve.token, "avatar", "image/png", 4);
    expect((await fetch(minted.url, { method: "PUT", headers: minted.headers, body: "1234" })).status).toBe(200);
    const profile = await api("PATCH", "/profile", { token: ada.token, body: { avatar_key: minted.key } });
    expect(profile.status).toBe(403);
    expect(await status(minted.key)).toBe("pending");
  });
});
