import { describe, expect, it } from "vitest";
import { capabilities, type Capability } from "@/registry/capabilities";
import type { ResourceSpec } from "@/registry/define";
import { SCOPES } from "@/registry/scopes";
import { asService } from "@/lib/db";
import { revokeToken } from "@/lib/auth/tokens";
import { api } from "../support/api";
import { makeMember, type TestMember, tokenFor } from "../support/factories";
import { createRow, validCreateBody, WRONG_TYPE } from "../support/resource-fixtures";

/**
 * Generated from the registry: every resource × verb gets the same guarantees, so a resource is
 * covered the day it is declared.
 */
const resourceCapabilities = capabilities.flatMap((capability) =>
  capability.source.kind === "resource" && capability.http ? [{ capability, ...capability.source }] : [],
);

/**
 * A real change: the first writable field set to its documented example. A handle is unique across
 * members, and other files (the reference's code samples) write the same example into the one
 * database of the server pass, so the owner's own suffix keeps it free.
 */
function exampleChange(resource: ResourceSpec, owner: TestMember): Record<string, unknown> {
  if (resource.updateInput) return {};
  const entry = Object.entries(resource.fields).find(
    ([name, field]) => !field.readOnly && field.example !== undefined && !name.endsWith("_id"),
  );
  if (!entry) return {};
  const [name, field] = entry;
  return { [name]: name === "handle" ? `${field.example}_${owner.id.slice(0, 8)}` : field.example };
}

async function requestFor(capability: Capability, owner: TestMember) {
  const http = capability.http;
  if (!http) throw new Error("no http");
  const source = capability.source;
  if (source.kind !== "resource") throw new Error("not a resource");
  const id = http.pathParams.includes("id") ? await createRow(source.resource, owner) : undefined;
  const path = http.path.replace("{id}", id ?? "");
  const body =
    source.verb === "create"
      ? await validCreateBody(source.resource, owner)
      : source.verb === "update"
        ? exampleChange(source.resource, owner)
        : undefined;
  return { method: http.method, path, body, id };
}

describe.each(resourceCapabilities.map((c) => [c.capability.tool, c] as const))("%s", (_tool, entry) => {
  const { capability, resource, verb } = entry;

  it("refuses a request with no token (401)", async () => {
    const owner = await makeMember();
    const { method, path, body } = await requestFor(capability, owner);
    const response = await api(method, path, { body });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(response.headers.get("content-type")).toMatch(/application\/problem\+json/);
    expect(response.body).toMatchObject({ status: 401, code: "unauthorized", request_id: expect.any(String) });
  });

  it("refuses malformed, unknown, expired and revoked tokens (401)", async () => {
    const owner = await makeMember();
    const { method, path, body } = await requestFor(capability, owner);
    const expired = await makeMember();
    await asService((tx) =>
      tx.query("update app_private.access_tokens set expires_at = now() - interval '1 second' where id = $1", [
        expired.tokenId,
      ]),
    );
    const revoked = await makeMember();
    await revokeToken(revoked.tokenId);
    const unknown = `pds_${"A".repeat(36)}`;
    for (const token of ["not-a-token", unknown, expired.token, revoked.token]) {
      const response = await api(method, path, { token, body });
      expect(response.status, token).toBe(401);
      expect(response.body.code).toBe("unauthorized");
    }
  });

  it(`refuses a token without ${capability.scope} (403)`, async () => {
    const owner = await makeMember();
    const { method, path, body } = await requestFor(capability, owner);
    const narrow = await tokenFor(
      owner.id,
      SCOPES.filter((scope) => scope !== capability.scope),
    );
    const response = await api(method, path, { token: narrow, body });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe("insufficient_scope");
    expect(response.headers.get("www-authenticate")).toContain(`scope="${capability.scope}"`);
  });

  if (capability.http?.pathParams.includes("id")) {
    it("answers 404 for another member's row it cannot read (403 for one it can), and leaves it unchanged", async () => {
      const owner = await makeMember();
      const stranger = await makeMember();
      const { method, path, body } = await requestFor(capability, owner);
      // What the stranger's GET of the same id answers decides: readable is 200 (channels are
      // public destinations), and a write to a readable row is refused rather than missing.
      const readable =
        resource.verbs.includes("get") && (await api("GET", path, { token: stranger.token })).status === 200;
      const response = await api(method, path, { token: stranger.token, body: verb === "update" ? { ...body } : body });
      if (readable) {
        expect(response.status).toBe(verb === "get" ? 200 : 403);
        if (verb !== "get") expect(response.body.reason.code).toBe("not_owner");
        return;
      }
      expect(response.status).toBe(404);
      expect(response.body.code).toBe("not_found");
      if (resource.verbs.includes("get")) {
        expect((await api("GET", path, { token: owner.token })).status).toBe(200);
      }
    });

    it("answers 404 for an id that cannot exist", async () => {
      const owner = await makeMember();
      const { method, path, body } = await requestFor(capability, owner);
      const base = path.replace(/[^/]+$/, "");
      for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
        const response = await api(method, `${base}${id}`, { token: owner.token, body });
        expect(response.status).toBe(404);
      }
    });
  }

  if (verb === "create" || verb === "update") {
    const firstWritable = Object.entries(resource.updateInput?.shape ?? resource.fields).find(
      ([, field]) => !("readOnly" in field && field.readOnly),
    )?.[0];
    const firstReadOnly = capability.readOnlyFields.find((name) => !(name in capability.input.shape));

    it("refuses a value of the wrong type (422 naming the field)", async () => {
      const owner = await makeMember();
      const { method, path, body } = await requestFor(capability, owner);
      const response = await api(method, path, {
        token: owner.token,
        body: { ...body, [String(firstWritable)]: WRONG_TYPE },
      });
      expect(response.status).toBe(422);
      expect(response.body.code).toBe("invalid_request");
      expect(response.body.errors).toContainEqual(expect.objectContaining({ pointer: `/${firstWritable}` }));
    });

    it("refuses an unknown field (422 unknown_field)", async () => {
      const owner = await makeMember();
      const { method, path, body } = await requestFor(capability, owner);
      const response = await api(method, path, { token: owner.token, body: { ...body, bogus_field: 1 } });
      expect(response.status).toBe(422);
      expect(response.body.errors).toContainEqual({
        pointer: "/bogus_field",
        code: "unknown_field",
        message: expect.any(String),
      });
    });

    if (firstReadOnly) {
      it(`refuses the read-only field ${firstReadOnly} (422 read_only)`, async () => {
        const owner = await makeMember();
        const { method, path, body } = await requestFor(capability, owner);
        const response = await api(method, path, {
          token: owner.token,
          body: { ...body, [firstReadOnly]: resource.fields[firstReadOnly]?.example ?? "x" },
        });
        expect(response.status).toBe(422);
        expect(response.body.errors).toContainEqual(
          expect.objectContaining({ pointer: `/${firstReadOnly}`, code: "read_only" }),
        );
      });
    }
  }

  it(`succeeds with the right scope (${capability.successStatus})`, async () => {
    const owner = await makeMember();
    const { method, path, body } = await requestFor(capability, owner);
    const response = await api(method, path, { token: owner.token, body });
    expect(response.status).toBe(capability.successStatus);
    expect(response.headers.get("request-id")).toBeTruthy();
    if (capability.successStatus !== 204) expect(capability.output.safeParse(response.body).error).toBeUndefined();
  });
});

describe("an empty PATCH", () => {
  it("still needs the right to change the row: 403 on another member's channel, 200 on your own", async () => {
    const owner = await makeMember();
    const stranger = await makeMember();
    const created = await api("POST", "/channels", {
      token: owner.token,
      body: { handle: `h_${owner.id.slice(0, 8)}`, title: "Mine" },
    });
    const path = `/channels/${created.body.id}`;
    expect((await api("PATCH", path, { token: stranger.token, body: {} })).status).toBe(403);
    const own = await api("PATCH", path, { token: owner.token, body: {} });
    expect(own.status).toBe(200);
    expect(own.body.updated_at).toBe(created.body.updated_at); // nothing changed, nothing bumped
  });
});
