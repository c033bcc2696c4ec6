import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { buildOpenApiDocument } from "@/lib/surfaces/openapi";
import { collectionWithItem, limitedToken } from "../auth/credential-limits-support";
import { api } from "../support/api";
import { makeMember } from "../support/factories";
import { type AgentResponse, invoke } from "./agent";

/**
 * POST /api/agent/invoke answers what its operation in the reference says: each real answer (a
 * result, a create, a delete, a browser directive, a held delete, refusals) is found under its
 * status in paths./invoke.post.responses and validates against that response's schema, checked
 * the way invoke-equals-rest.test.ts checks outputs (the MCP SDK's AJV validator).
 */
type Json = Record<string, any>;
const doc = buildOpenApiDocument() as Json;
const operation = doc.paths["/invoke"].post as Json;

/** The response the reference gives for this status: its own, else its range (4XX). */
function documented(status: number): Json | undefined {
  return operation.responses[String(status)] ?? operation.responses[`${String(status)[0]}XX`];
}

function validate(schema: Json, body: unknown): string | undefined {
  // The schema's $refs point into the document's components, so the root carries them.
  const root = { allOf: [schema], components: doc.components } as Parameters<AjvJsonSchemaValidator["getValidator"]>[0];
  return new AjvJsonSchemaValidator().getValidator(root)(body).errorMessage;
}

/** Headers of ours an answer may carry; each one it carries must be in its response's headers. */
const OWN_HEADERS = ["request-id", "ratelimit", "ratelimit-policy", "retry-after", "www-authenticate"];

function expectDocumented(answer: AgentResponse): Json {
  const response = documented(answer.status);
  expect(response, `${answer.status} is not in the reference`).toBeDefined();
  expect(validate(response?.content["application/json"].schema, answer.body), JSON.stringify(answer.body)).toBe(
    undefined,
  );
  const named = Object.keys(response?.headers ?? {}).map((name) => name.toLowerCase());
  for (const name of OWN_HEADERS.filter((own) => answer.headers.has(own)))
    expect(named, String(answer.status)).toContain(name);
  return response as Json;
}

describe("invoke's answers, validated against the reference", () => {
  beforeAll(async () => {
    await getDb();
  }, 180_000);

  it("a result, a create, a delete and a browser directive", async () => {
    const ada = await makeMember();
    const made = await invoke(ada.token, { tool: "goals_create", input: { title: "Run", target_value: 10 } });
    expect(made.status).toBe(201);
    expectDocumented(made);
    const listed = await invoke(ada.token, { tool: "goals_list", input: {} });
    expect(listed.status).toBe(200);
    expectDocumented(listed);
    const deleted = await invoke(ada.token, { tool: "goals_delete", input: { id: made.body.result.id } });
    expect(deleted.body).toEqual({ ok: true, result: null });
    expectDocumented(deleted);
    const opened = await invoke(ada.token, { tool: "open_url", input: { url: "https://example.org/" } });
    expect(opened.body.directive.type).toBe("open_url");
    expectDocumented(opened);
    // The check has teeth: a directive the reference does not know is refused.
    const unknown = { ok: true, directive: { ...opened.body.directive, type: "self_destruct" } };
    expect(validate(documented(200)?.content["application/json"].schema, unknown)).toBeDefined();
  });

  it("a delete held for the member's confirmation: 202 with the confirm_delete directive", async () => {
    const ada = await makeMember();
    const goal = await api("POST", "/goals", { token: ada.token, body: { title: "Keep running", target_value: 10 } });
    const token = await limitedToken(ada.id, { confirmDestructive: true });
    const held = await invoke(token, { tool: "goals_delete", input: { id: goal.body.id } });
    expect(held.status).toBe(202);
    expect(held.body.directive).toMatchObject({ type: "confirm_delete", tool: "goals_delete", id: goal.body.id });
    const response = expectDocumented(held);
    const schema = doc.components.schemas.ConfirmDeleteDirective;
    expect(Object.keys(schema.properties).sort()).toEqual(Object.keys(held.body.directive).sort());
    // The reference says how it completes: the member confirms at url, signed in.
    expect(response.description).toContain("url");
    expect(response.description).toMatch(/confirm/i);
    expect((await api("GET", `/goals/${goal.body.id}`, { token: ada.token })).status).toBe(200);

    const { itemId } = await collectionWithItem(ada, "Careful");
    expectDocumented(await invoke(token, { tool: "items_delete", input: { id: itemId } }));
  });

  it("refusals: no token, an unknown tool, invalid input", async () => {
    const ada = await makeMember();
    const answers = [
      await invoke(undefined, { tool: "goals_list", input: {} }),
      await invoke(ada.token, { tool: "no_such_tool", input: {} }),
      await invoke(ada.token, { tool: "goals_create", input: { title: 7 } }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([401, 404, 422]);
    for (const answer of answers) expectDocumented(answer);
  });
});
