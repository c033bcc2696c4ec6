import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { api } from "../support/api";
import { makeMember, tokenFor } from "../support/factories";
import { invoke } from "./agent";

describe("POST /api/agent/invoke", () => {
  // The first file in a worker opens (and migrates) its database; keep that out of the test timeouts.
  beforeAll(async () => {
    await getDb();
  }, 180_000);

  it("runs a tool as the token's member and frames the answer", async () => {
    const ada = await makeMember();
    const created = await invoke(ada.token, { tool: "collections_create", input: { name: "Jazz", type: "music" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ok: true, result: { name: "Jazz", owner_id: ada.id } });
    expect(created.headers.get("request-id")).toMatch(/^req_/);
    expect(created.headers.get("ratelimit-policy")).toMatch(/^"token";q=\d+/);
    const id = created.body.result.id;
    const fetched = await api("GET", `/collections/${id}`, { token: ada.token });
    expect(fetched.body).toEqual(created.body.result);
    const listed = await invoke(ada.token, { tool: "collections_list", input: { limit: 1 } });
    expect(listed.body.result.data.map((c: { id: string }) => c.id)).toEqual([id]);
  });

  it("answers a delete with 200 and result null, since a 204 cannot carry the envelope", async () => {
    const ada = await makeMember();
    const goal = await api("POST", "/goals", { token: ada.token, body: { title: "Read 12 books", target_value: 12 } });
    const deleted = await invoke(ada.token, { tool: "goals_delete", input: { id: goal.body.id } });
    expect(deleted).toMatchObject({ status: 200, body: { ok: true, result: null } });
    expect((await api("GET", `/goals/${goal.body.id}`, { token: ada.token })).status).toBe(404);
  });

  it("refuses an unknown tool (404), a tool outside the scopes (403) and a missing token (401)", async () => {
    const ada = await makeMember();
    const unknown = await invoke(ada.token, { tool: "collections_explode", input: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ ok: false, error: { code: "not_found", status: 404 } });
    const narrow = await tokenFor(ada.id, ["todos:read"]);
    const outside = await invoke(narrow, { tool: "todos_create", input: { title: "x" } });
    expect(outside.status).toBe(403);
    expect(outside.body.error.code).toBe("insufficient_scope");
    expect(outside.headers.get("www-authenticate")).toContain('scope="todos:write"');
    const anonymous = await invoke(undefined, { tool: "todos_list", input: {} });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ ok: false, error: { code: "unauthorized" } });
  });

  it("validates the envelope and the input like REST does", async () => {
    const ada = await makeMember();
    expect((await invoke(ada.token, "{not json")).status).toBe(400);
    const extra = await invoke(ada.token, { tool: "todos_list", input: {}, mode: "fast" });
    expect(extra.status).toBe(422);
    expect(extra.body.error.errors[0].pointer).toBe("/mode");
    const noTool = await invoke(ada.token, { input: {} });
    expect(noTool.body.error.errors[0].pointer).toBe("/tool");
    const readOnly = await invoke(ada.token, { tool: "todos_create", input: { title: "x", id: crypto.randomUUID() } });
    expect(readOnly.status).toBe(422);
    const viaRest = await api("POST", "/todos", { token: ada.token, body: { title: "x", id: crypto.randomUUID() } });
    expect(readOnly.body.error).toMatchObject({ ...viaRest.body, request_id: readOnly.body.error.request_id });
  });

  it("accepts OpenAI strict arguments when format is openai: null means left out", async () => {
    const ada = await makeMember();
    const input = { name: "Films", type: "film", visibility: null, description: null };
    const plain = await invoke(ada.token, { tool: "collections_create", input });
    expect(plain.status).toBe(422);
    const openai = await invoke(ada.token, { tool: "collections_create", input, format: "openai" });
    expect(openai.status).toBe(201);
    expect(openai.body.result).toMatchObject({ name: "Films", visibility: "private" });
  });
});
