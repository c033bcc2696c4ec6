import { randomUUID } from "node:crypto";
import type { ResourceSpec } from "@/registry/define";
import { resources } from "@/registry/index";
import { api } from "./api";
import { makeCatalogEntry, makeMember, type TestMember } from "./factories";

/**
 * A valid create body for any resource, built from the registry: required fields take their
 * documented examples; fields that reference other rows (FieldSpec.references) get real rows made
 * for the purpose, and unique fields a fresh value.
 */
export async function validCreateBody(
  resource: ResourceSpec,
  owner: TestMember,
  registry: readonly ResourceSpec[] = resources,
): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(resource.fields)) {
    if (!field.required || field.readOnly) continue;
    const ref = field.references;
    if (ref === "member") body[name] = (await makeMember()).id;
    else if (ref === "catalog-entry") body[name] = await makeCatalogEntry();
    else if (ref) {
      const target = registry.find((candidate) => candidate.name === ref.resource);
      if (!target) throw new Error(`${resource.name}.${name} references ${ref.resource}, which the registry lacks`);
      body[name] = await createRow(target, owner, registry);
    } else if (field.unique) body[name] = `h_${randomUUID().slice(0, 8)}`;
    else body[name] = field.example;
  }
  return body;
}

/** Creates a row of the resource owned by `owner` through the API and answers its id. */
export async function createRow(
  resource: ResourceSpec,
  owner: TestMember,
  registry: readonly ResourceSpec[] = resources,
): Promise<string> {
  const response = await api("POST", `/${resource.name}`, {
    token: owner.token,
    body: await validCreateBody(resource, owner, registry),
  });
  if (response.status !== 201) {
    throw new Error(`fixture create ${resource.name} failed: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body.id;
}

/** A value no field schema accepts (every field is a scalar or an array). */
export const WRONG_TYPE = { not: "a valid value" };
