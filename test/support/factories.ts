import { randomUUID } from "node:crypto";
import { SCOPES, type Scope } from "@/registry/scopes";
import { createMember } from "@/lib/auth/members";
import { createToken } from "@/lib/auth/tokens";
import { asService } from "@/lib/db";

export interface TestMember {
  id: string;
  email: string;
  handle: string;
  token: string;
  tokenId: string;
}

/** A fresh member with a token; every test makes its own, so no test depends on another's data. */
export async function makeMember(
  options: { scopes?: readonly Scope[]; plan?: "free" | "pro"; days?: number } = {},
): Promise<TestMember> {
  const email = `m-${randomUUID()}@example.test`;
  const member = await createMember({ email, plan: options.plan, handle: `t_${randomUUID().slice(0, 8)}` });
  const { token, record } = await createToken({
    memberId: member.id,
    name: "test",
    scopes: options.scopes ?? SCOPES,
    days: options.days,
  });
  return { id: member.id, email, handle: member.handle, token, tokenId: record.id };
}

/** Another token for the same member, e.g. with fewer scopes. */
export async function tokenFor(memberId: string, scopes: readonly Scope[]): Promise<string> {
  return (await createToken({ memberId, name: "test", scopes })).token;
}

/** Catalog entries are written by the service (the resolver), never by members. */
export async function makeCatalogEntry(title = `Entry ${randomUUID().slice(0, 8)}`, domain = "music"): Promise<string> {
  const [row] = await asService((tx) =>
    tx.query<{ id: string }>("insert into public.catalog_entries (domain, title) values ($1, $2) returning id", [
      domain,
      title,
    ]),
  );
  if (!row) throw new Error("catalog insert returned nothing");
  return row.id;
}
