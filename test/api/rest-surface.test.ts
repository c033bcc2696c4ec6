import { describe, expect, it } from "vitest";
import { VERBS, type Verb } from "@/registry/define";
import { resources } from "@/registry/index";
import { api } from "../support/api";
import { makeMember } from "../support/factories";

const METHOD: Record<Verb, string> = { list: "GET", get: "GET", create: "POST", update: "PATCH", delete: "DELETE" };
const ID = "00000000-0000-4000-8000-000000000000";

/** Where a verb would live if it were offered: the same shapes the registry derives. */
function addressOf(resource: (typeof resources)[number], verb: Verb): string {
  const byId = resource.singleton ? `/${resource.name}` : `/${resource.name}/${ID}`;
  return verb === "list" || verb === "create" ? `/${resource.name}` : byId;
}

describe("verbs a resource does not offer", () => {
  const cases = resources.flatMap((resource) =>
    VERBS.filter((verb) => !resource.verbs.includes(verb))
      .map((verb) => ({ resource, verb, method: METHOD[verb], path: addressOf(resource, verb) }))
      // list and get share GET on singletons: the offered one answers there.
      .filter(
        ({ resource: r, verb }) => !(r.singleton && METHOD[verb] === "GET" && r.verbs.some((v) => METHOD[v] === "GET")),
      )
      .filter(({ resource: r, verb }) => !(r.singleton && verb === "update" && r.verbs.includes("update"))),
  );

  it.each(
    cases.map((c) => [`${c.method} ${c.path.replace(ID, "{id}")} (${c.resource.name} ${c.verb})`, c] as const),
  )("%s answers 405 with Allow", async (_name, { resource, method, path }) => {
    const member = await makeMember();
    const response = await api(method, path, {
      token: member.token,
      body: method === "GET" || method === "DELETE" ? undefined : {},
    });
    expect(response.status).toBe(405);
    expect(response.body.code).toBe("method_not_allowed");
    const allow = response.headers.get("allow")?.split(", ") ?? [];
    expect(allow.length).toBeGreaterThan(0);
    for (const offered of allow) expect(resource.verbs.map((v) => METHOD[v])).toContain(offered);
  });

  it("covers the spec's absent verbs", () => {
    const names = cases.map((c) => `${c.resource.name}:${c.verb}`);
    for (const expected of [
      "messages:update",
      "messages:delete",
      "follows:get",
      "follows:update",
      "channels:delete",
      "collection-types:create",
      "profile:delete",
    ]) {
      expect(names).toContain(expected);
    }
  });
});

describe("routing", () => {
  it("answers 404 problem+json for an unknown route", async () => {
    const member = await makeMember();
    const response = await api("GET", "/nothing-here", { token: member.token });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toContain("application/problem+json");
  });

  it("echoes a well-formed Request-Id and makes one otherwise", async () => {
    const member = await makeMember();
    const echoed = await api("GET", "/collections", {
      token: member.token,
      headers: { "request-id": "trace-12345678" },
    });
    expect(echoed.headers.get("request-id")).toBe("trace-12345678");
    const made = await api("GET", "/collections", { token: member.token, headers: { "request-id": "bad id!" } });
    expect(made.headers.get("request-id")).toMatch(/^req_[0-9a-f]{32}$/);
  });
});

describe("list parameters", () => {
  it.each([
    ["limit above 200", "?limit=201", "/limit"],
    ["limit of 0", "?limit=0", "/limit"],
    ["a non-numeric limit", "?limit=ten", "/limit"],
    ["offset paging", "?offset=10", "/offset"],
    ["an unknown filter", "?colour=red", "/colour"],
    ["a cursor this service did not issue", "?after=bm90LWEtY3Vyc29y", "/after"],
    ["a repeated parameter", "?limit=1&limit=2", "/limit"],
  ])("refuses %s with 422", async (_name, query, pointer) => {
    const member = await makeMember();
    const response = await api("GET", `/collections${query}`, { token: member.token });
    expect(response.status).toBe(422);
    expect(response.body.code).toBe("invalid_request");
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
  });

  it("accepts limit 200 and defaults to 50", async () => {
    const member = await makeMember();
    expect((await api("GET", "/collections?limit=200", { token: member.token })).status).toBe(200);
  });
});

describe("request bodies", () => {
  it("answers 400 for malformed JSON and 415 for another content type, writing nothing", async () => {
    const member = await makeMember();
    const broken = await api("POST", "/collections", {
      token: member.token,
      rawBody: '{"name": "x", "type": ',
      headers: { "content-type": "application/json" },
    });
    expect(broken.status).toBe(400);
    expect(broken.body.code).toBe("malformed_request");
    const form = await api("POST", "/collections", {
      token: member.token,
      rawBody: "name=x&type=music",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(415);
    const list = await api("GET", "/collections", { token: member.token });
    expect(list.body.data).toEqual([]);
  });

  it("refuses a body that is not an object (422)", async () => {
    const member = await makeMember();
    const response = await api("POST", "/collections", { token: member.token, body: [{ name: "x" }] });
    expect(response.status).toBe(422);
  });

  it("refuses an id in the body that contradicts the path (422 read_only)", async () => {
    const member = await makeMember();
    const created = await api("POST", "/todos", { token: member.token, body: { title: "t" } });
    const response = await api("PATCH", `/todos/${created.body.id}`, { token: member.token, body: { id: ID } });
    expect(response.status).toBe(422);
    expect(response.body.errors[0]).toMatchObject({ pointer: "/id", code: "read_only" });
  });
});
