import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as restRoute from "@/app/api/v1/[...path]/route";
import * as mediaRoute from "@/app/storage/media/[...key]/route";
import { READ_ONLY_SCOPES } from "@/registry/scopes";
import { api } from "../support/api";
import { makeMember, tokenFor } from "../support/factories";
import { getTools, invoke } from "../surfaces/agent";
import { uploaded, useLocalStorage } from "../uploads/support/storage";

type Handler = (request: Request, context: { params: Promise<{ path: string[] }> }) => Promise<Response>;
type MediaHandler = (request: Request, context: { params: Promise<{ key: string[] }> }) => Promise<Response>;

let storage: ReturnType<typeof useLocalStorage>;
beforeAll(() => {
  storage = useLocalStorage();
});
afterAll(() => storage.restore());

async function exportZip(token: string): Promise<{ response: Response; files: Record<string, any> }> {
  const handler = (restRoute as unknown as Record<string, Handler>).GET as Handler;
  const response = await handler(
    new Request("http://localhost/api/v1/export", { headers: { authorization: `Bearer ${token}` } }),
    { params: Promise.resolve({ path: ["export"] }) },
  );
  if (response.status !== 200) return { response, files: { problem: await response.json() } };
  const entries = unzipSync(new Uint8Array(await response.arrayBuffer()));
  const files = Object.fromEntries(Object.entries(entries).map(([name, bytes]) => [name, JSON.parse(strFromU8(bytes))]));
  return { response, files };
}

describe("GET /api/v1/export", () => {
  it("answers a ZIP of the member's own rows, one document per resource, and a manifest with media links", async () => {
    const ada = await makeMember({ plan: "pro" });
    const bob = await makeMember();
    const collection = await api("POST", "/collections", { token: ada.token, body: { name: "Ada's", type: "music" } });
    await api("POST", "/collections", { token: bob.token, body: { name: "Bob's", type: "music", visibility: "public" } });
    await api("POST", "/todos", { token: ada.token, body: { title: "ada todo" } });
    await api("POST", "/todos", { token: bob.token, body: { title: "bob todo" } });
    const streak = await api("POST", "/streaks", { token: ada.token, body: { name: "walk" } });
    await api("POST", `/streaks/${streak.body.id}/check-in`, { token: ada.token, body: {} });
    await api("POST", "/follows", { token: bob.token, body: { followee_id: ada.id } });
    await api("POST", "/messages", { token: bob.token, body: { recipient_id: ada.id, body: "hi ada" } });
    await api("POST", "/messages", { token: ada.token, body: { recipient_id: bob.id, body: "hi bob" } });
    const avatar = await uploaded(ada.token, "avatar");

    const { response, files } = await exportZip(ada.token);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toMatch(/attachment; filename="export-\d{4}-\d{2}-\d{2}\.zip"/);
    expect(Object.keys(files).sort()).toEqual(
      [
        "manifest.json",
        "profile.json",
        "collection-types.json",
        "collections.json",
        "items.json",
        "todos.json",
        "goals.json",
        "streaks.json",
        "messages.json",
        "follows.json",
        "channels.json",
        "tokens.json",
        "uploads.json",
        "webhook-endpoints.json",
      ].sort(),
    );
    expect(files["profile.json"].id).toBe(ada.id);
    expect(files["collections.json"].map((c: any) => c.id)).toEqual([collection.body.id]);
    expect(files["todos.json"].map((t: any) => t.title)).toEqual(["ada todo"]);
    expect(files["streaks.json"][0].check_ins).toHaveLength(1);
    expect(files["messages.json"].map((m: any) => m.body).sort()).toEqual(["hi ada", "hi bob"]);
    expect(files["follows.json"]).toEqual([expect.objectContaining({ follower_id: bob.id, followee_id: ada.id })]);
    expect(files["tokens.json"][0]).toMatchObject({ id: ada.tokenId, display: `pds_…${ada.token.slice(-4)}` });
    const text = JSON.stringify(files);
    expect(text).not.toContain(ada.token);
    expect(text).not.toContain("token_hash");
    expect(text).not.toContain("bob todo");
    expect(text).not.toContain("Bob's");

    const manifest = files["manifest.json"];
    expect(manifest).toMatchObject({ format: "pds-export/1", member_id: ada.id });
    expect(manifest.documents).toContainEqual({ file: "todos.json", resource: "todos", count: 1 });
    expect(manifest.media).toEqual([expect.objectContaining({ key: avatar, purpose: "avatar", content_type: "image/png" })]);

    // The link downloads the bytes; a tampered one does not.
    const media = (mediaRoute as unknown as Record<string, MediaHandler>).GET as MediaHandler;
    const fetchMedia = (url: string) => {
      const parsed = new URL(url);
      const key = parsed.pathname.replace(/^\/storage\/media\//, "").split("/");
      return media(new Request(parsed), { params: Promise.resolve({ key }) });
    };
    const download = await fetchMedia(manifest.media[0].url);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("image/png");
    expect(await download.text()).toBe("fake image bytes");
    const tampered = new URL(manifest.media[0].url);
    tampered.searchParams.set("expires", String(Number(tampered.searchParams.get("expires")) + 1));
    expect((await fetchMedia(tampered.toString())).status).toBe(403);
  });

  it("needs every read scope: one missing is 403 naming it, on REST and invoke alike", async () => {
    const ada = await makeMember();
    const partial = await tokenFor(ada.id, READ_ONLY_SCOPES.filter((s) => s !== "messages:read"));
    const refused = await api("GET", "/export", { token: partial });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("insufficient_scope");
    expect(refused.body.detail).toContain("messages:read");
    const invoked = await invoke(partial, { tool: "export", input: {} });
    expect(invoked.status).toBe(403);

    const reader = await tokenFor(ada.id, READ_ONLY_SCOPES);
    const viaInvoke = await invoke(reader, { tool: "export", input: {} });
    expect(viaInvoke.status).toBe(200);
    expect(Object.keys(viaInvoke.body.result.files)).toContain("manifest.json");
    const tools = await getTools(partial);
    expect(JSON.stringify(tools.body)).not.toContain('"export"');
  });
});

describe("S3 download links for exports", () => {
  it("are SigV4 presigned GETs of the key, expiring when asked", async () => {
    const { s3Driver } = await import("@/lib/domain/uploads/s3-driver");
    const driver = s3Driver({
      bucket: "media",
      region: "us-east-1",
      endpoint: "http://127.0.0.1:9",
      forcePathStyle: true,
      credentials: { accessKeyId: "AKIDEXPORT", secretAccessKey: "export-secret" },
    });
    const key = `avatar/${crypto.randomUUID()}`;
    const url = new URL(await driver.presignGet(key, new Date(Date.now() + 3600_000)));
    expect(url.pathname).toBe(`/media/${key}`);
    expect(url.searchParams.get("X-Amz-Expires")).toMatch(/^(3599|3600)$/);
    expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
  });
});
