import { type Actor, asMember } from "../db/index.ts";

/** Blocks are made on the settings page, by the member: the events they cause (follows ended) say so. */
const PAGE: Actor = { kind: "session", surface: "page" };

export interface BlockedMember {
  id: string;
  handle: string;
  display_name: string;
  created_at: string;
}

export type BlockResult = { ok: true; handle: string } | { ok: false; error: string };

/**
 * Blocks are not an API resource (spec: managed on the settings pages), so these run as the member
 * with RLS deciding, exactly like the API: a member can only make, read and lift their own blocks.
 */
export async function listBlocks(memberId: string): Promise<BlockedMember[]> {
  return asMember(memberId, (tx) =>
    tx.query<BlockedMember>(
      `select p.id, p.handle::text as handle, p.display_name, to_jsonb(b.created_at) #>> '{}' as created_at
       from public.blocks b join public.profiles p on p.id = b.blocked_id
       order by b.created_at desc, p.handle`,
    ),
  );
}

export async function blockByHandle(memberId: string, rawHandle: string): Promise<BlockResult> {
  const handle = rawHandle.trim().replace(/^@/, "");
  if (!/^[A-Za-z0-9_]{3,30}$/.test(handle)) return { ok: false, error: "Enter a handle: 3–30 letters, digits or _." };
  return asMember(
    memberId,
    async (tx) => {
      const [target] = await tx.query<{ id: string; handle: string }>(
        "select id, handle::text as handle from public.profiles where handle operator(extensions.=) $1::extensions.citext",
        [handle],
      );
      if (!target) return { ok: false, error: `No member has the handle @${handle}.` };
      if (target.id === memberId) return { ok: false, error: "You cannot block yourself." };
      // Blocking twice is not an error: the member wanted them blocked, and they are.
      await tx.query("insert into public.blocks (blocked_id) values ($1) on conflict do nothing", [target.id]);
      return { ok: true, handle: target.handle };
    },
    { actor: PAGE },
  );
}

export async function unblock(memberId: string, blockedId: string): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/i.test(blockedId)) return false;
  const rows = await asMember(
    memberId,
    (tx) => tx.query("delete from public.blocks where blocked_id = $1 returning blocked_id", [blockedId]),
    { actor: PAGE },
  );
  return rows.length > 0;
}
