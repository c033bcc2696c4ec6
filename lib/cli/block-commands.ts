import { findMemberByEmail } from "../auth/members.ts";
import { asMember } from "../db/index.ts";
import { required, UsageError } from "./args.ts";

/**
 * block / unblock: the operator acts for the blocking member, as that member (role authenticated,
 * RLS on), so the CLI can do nothing the member could not do on the settings page.
 */
async function pair(flags: Record<string, string>) {
  const email = required(flags, "email");
  const other = required(flags, "blocks");
  const [blocker, blocked] = await Promise.all([findMemberByEmail(email), findMemberByEmail(other)]);
  if (!blocker) throw new UsageError(`no member with email ${email}`);
  if (!blocked) throw new UsageError(`no member with email ${other}`);
  if (blocker.id === blocked.id) throw new UsageError("a member cannot block themselves");
  return { blocker, blocked };
}

export async function blockCommand(flags: Record<string, string>): Promise<string> {
  const { blocker, blocked } = await pair(flags);
  // Blocking twice is not an error: the member is blocked either way.
  await asMember(blocker.id, (tx) =>
    tx.query("insert into public.blocks (blocked_id) values ($1) on conflict do nothing", [blocked.id]),
  );
  return JSON.stringify({ blocker: blocker.email, blocked: blocked.email, blocking: true });
}

export async function unblockCommand(flags: Record<string, string>): Promise<string> {
  const { blocker, blocked } = await pair(flags);
  const lifted = await asMember(blocker.id, (tx) =>
    tx.query("delete from public.blocks where blocked_id = $1 returning blocked_id", [blocked.id]),
  );
  return JSON.stringify({ blocker: blocker.email, blocked: blocked.email, blocking: false, lifted: lifted.length > 0 });
}
