import { SCOPES, type Scope } from "@/registry/scopes";
import type { CredentialLimits } from "@/lib/auth/credential-limits";
import { createToken } from "@/lib/auth/tokens";
import { api } from "../support/api";
import { getDb } from "@/lib/db";
import { makeCatalogEntry, makeMember, type TestMember } from "../support/factories";

/** A token of the member with these limits (every scope unless told). */
export async function limitedToken(
  memberId: string,
  limits: CredentialLimits,
  scopes: readonly Scope[] = SCOPES,
): Promise<string> {
  return (await createToken({ memberId, name: "limited", scopes, limits })).token;
}

/** A collection with one item, made with the member's unlimited token. */
export async function collectionWithItem(owner: TestMember, name: string, visibility = "private") {
  const collection = await api("POST", "/collections", {
    token: owner.token,
    body: { name, type: "music", visibility },
  });
  if (collection.status !== 201) throw new Error(`collection: ${collection.status}`);
  const item = await api("POST", "/items", {
    token: owner.token,
    body: { collection_id: collection.body.id, song_id: await makeCatalogEntry() },
  });
  if (item.status !== 201) throw new Error(`item: ${item.status}`);
  return { collectionId: collection.body.id as string, itemId: item.body.id as string };
}

export const ids = (page: { data: { id: string }[] }) => page.data.map((row) => row.id).sort();

/**
 * A member with two collections of one item each and a token limited to the first; `before` runs
 * with the member's unlimited token before the limited one is made.
 */
export async function limitedToOneOfTwo(
  otherVisibility: string,
  before?: (ada: TestMember, other: Row) => Promise<void>,
) {
  await getDb();
  const ada = await makeMember();
  const allowed = await collectionWithItem(ada, "Road trip");
  const other = await collectionWithItem(ada, "Secret", otherVisibility);
  await before?.(ada, other);
  return { ada, allowed, other, token: await limitedToken(ada.id, { collections: [allowed.collectionId] }) };
}

type Row = Awaited<ReturnType<typeof collectionWithItem>>;
