import { randomUUID } from "node:crypto";
import type { ResourceSpec } from "@/registry/define";
import { api } from "./api";
import { makeCatalogEntry, makeMember, type TestMember } from "./factories";

/**
 * A valid create body for any resource, built from the registry: required fields take their
 * documented examples; fields that point at other rows get real rows made for the purpose.
 */
export async function validCreateBody(resource: ResourceSpec, owner: TestMember): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(resource.fields)) {
    if (field.required && !field.readOnly) body[name] = field.example;
  }
  if ("collection_id" in body) {
    const collection = await api("POST", "/collections", { token: owner.token, body: { name: "c", type: "music" } });
    body.collection_id = collection.body.id;
  }
  if ("song_id" in body) body.song_id = await makeCatalogEntry();
  for (const ref of ["recipient_id", "followee_id"]) {
    if (ref in body) body[ref] = (await makeMember()).id;
  }
  if ("handle" in body) body.handle = `h_${randomUUID().slice(0, 8)}`;
  return body;
}

/** Creates a row of the resource owned by `owner` through the API and answers its id. */
export async function createRow(resource: ResourceSpec, owner: TestMember): Promise<string> {
  const response = await api("POST", `/${resource.name}`, {
    token: owner.token,
    body: await validCreateBody(resource, owner),
  });
  if (response.status !== 201) {
    throw new Error(`fixture create ${resource.name} failed: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body.id;
}

/** A value no field schema accepts (every field is a scalar or an array). */
export const WRONG_TYPE = { not: "a valid value" };
