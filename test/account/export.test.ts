import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as restRoute from "@/app/api/v1/[...path]/route";
import * as mediaRoute from "@/app/storage/media/[...key]/route";
import { READ_ONLY_SCOPES, SCOPES } from "@/registry/scopes";
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
  const files = Object.fromEntries(
    Object.entries(entries).map(([name, bytes]) => [name, JSON.parse(strFromU8(bytes))]),
  );
  return { response, files };
}

describe("GET /api/v1/export", () => {
  it("answers a ZIP of the member's own rows, one document per resource, and a manifest with media links", async () => {
    const ada = await makeMember({ plan: "pro" });
    const bob = await makeMember();
    const collection = await api("POST", "/collections", { token: ada.token, body: { name: "Ada's", type: "music" } });
    await api("POST", "/collections", {
      token: bob.token,
      body: { name: "Bob's", type: "music", visibility: "public" },
    });
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
    expect(manifest.media).toEqual([
      expect.objectContaining({ key: avatar, purpose: "avatar", content_type: "image/png" }),
    ]);

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

  it("with the sixteen scopes of the spec, exports everything but webhook endpoints, and says so", async () => {
    const ada = await makeMember({ plan: "pro" });
    await api("POST", "/webhook-endpoints", {
      token: ada.token,
      body: { url: "https://example.com/hooks/pds", events: ["*"] },
    });
    const spec = await tokenFor(
      ada.id,
      SCOPES.filter((scope) => !scope.startsWith("webhooks:")),
    );
    const { response, files } = await exportZip(spec);
    expect(response.status).toBe(200);
    expect(files["webhook-endpoints.json"]).toBeUndefined();
    expect(files["todos.json"]).toEqual([]);
    expect(files["manifest.json"].omitted).toEqual([
      { file: "webhook-endpoints.json", resource: "webhook-endpoints", scope: "webhooks:read" },
    ]);
    const full = await exportZip(ada.token);
    expect(full.files["webhook-endpoints.json"]).toHaveLength(1);
    expect(full.files["manifest.json"].omitted).toEqual([]);
  });

  it("exports what the token's read scopes allow, uploads by purpose, and lists each section left out with its scope", async () => {
    const ada = await makeMember({ plan: "pro" });
    const bob = await makeMember();
    await api("POST", "/todos", { token: ada.token, body: { title: "ada todo" } });
    await api("POST", "/collections", { token: ada.token, body: { name: "Ada's", type: "music" } });
    await api("POST", "/messages", { token: bob.token, body: { recipient_id: ada.id, body: "hi ada" } });
    const avatar = await uploaded(ada.token, "avatar");
    const attachment = await uploaded(ada.token, "attachment");
    const narrow = await tokenFor(ada.id, ["todos:read", "messages:read", "todos:write"]);
    const { response, files } = await exportZip(narrow);
    expect(response.status).toBe(200);
    expect(Object.keys(files).sort()).toEqual(["manifest.json", "messages.json", "todos.json", "uploads.json"]);
    expect(files["todos.json"].map((t: any) => t.title)).toEqual(["ada todo"]);
    expect(files["uploads.json"].map((u: any) => u.key)).toEqual([attachment]);
    const manifest = files["manifest.json"];
    expect(manifest.media.map((m: any) => m.key)).toEqual([attachment]);
    expect(JSON.stringify(files)).not.toContain(avatar);
    expect(manifest.documents.map((d: any) => d.file).sort()).toEqual(["messages.json", "todos.json", "uploads.json"]);
    const omitted = manifest.omitted as { file: string; resource: string; scope: string; purpose?: string }[];
    expect(omitted).toEqual(
      expect.arrayContaining([
        { file: "profile.json", resource: "profile", scope: "profile:read" },
        { file: "collection-types.json", resource: "collection-types", scope: "collections:read" },
        { file: "collections.json", resource: "collections", scope: "collections:read" },
        { file: "follows.json", resource: "follows", scope: "social:read" },
        { file: "tokens.json", resource: "tokens", scope: "profile:read" },
        { file: "uploads.json", resource: "uploads", scope: "profile:read", purpose: "avatar" },
        { file: "uploads.json", resource: "uploads", scope: "items:read", purpose: "artwork" },
      ]),
    );
    expect(omitted.map((o) => o.file)).not.toContain("todos.json");
    expect(omitted.map((o) => o.file)).not.toContain("messages.json");
    // Every omitted section names a read scope, and with all of them nothing is left out.
    for (const entry of omitted) expect(READ_ONLY_SCOPES).toContain(entry.scope);
    const everything = await exportZip(await tokenFor(ada.id, READ_ONLY_SCOPES));
    expect(everything.files["manifest.json"].omitted).toEqual([]);

    // invoke answers the same documents.
    const viaInvoke = await invoke(narrow, { tool: "export", input: {} });
    expect(viaInvoke.status).toBe(200);
    expect(Object.keys(viaInvoke.body.result.files).sort()).toEqual(Object.keys(files).sort());
  });

  it("needs at least one read scope: a token with none is 403 naming them, and is not offered the tool", async () => {
    const ada = await makeMember();
    const writeOnly = await tokenFor(ada.id, ["todos:write", "messages:write"]);
    const refused = await api("GET", "/export", { token: writeOnly });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("insufficient_scope");
    expect(refused.body.detail).toContain("todos:read");
    expect((await invoke(writeOnly, { tool: "export", input: {} })).status).toBe(403);
    expect(JSON.stringify((await getTools(writeOnly)).body)).not.toContain('"export"');
    expect(JSON.stringify((await getTools(await tokenFor(ada.id, ["goals:read"]))).body)).toContain('"export"');
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

describe("the export's parts, from the registry", () => {
  it("has a part for every resource, and runs with exactly the read scopes some part needs", async () => {
    const { EXPORT_SCOPES, EXPORT_SECTIONS } = await import("@/registry/export-sections");
    const { resources } = await import("@/registry/index");
    const { acceptedScopes, capabilityByTool } = await import("@/registry/capabilities");
    for (const resource of resources) {
      expect(EXPORT_SECTIONS.map((s) => s.resource)).toContain(resource.name);
    }
    const exportCapability = capabilityByTool.get("export");
    if (!exportCapability) throw new Error("no export");
    expect([...acceptedScopes(exportCapability)].sort()).toEqual([...EXPORT_SCOPES].sort());
  });
});
