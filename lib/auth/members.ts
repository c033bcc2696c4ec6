import { asService, type Queryable } from "../db/index.ts";
import { hashPassword } from "./passwords.ts";

export interface MemberSummary {
  id: string;
  email: string;
  handle: string;
  plan: "free" | "pro";
  created_at: string;
}

/**
 * Members are auth.users rows (Supabase's table, created where missing). GoTrue stores emails
 * lower-cased; comparing lower() with lower() finds a member however the email was typed.
 */
export const SAME_EMAIL = "lower(u.email) = lower($1) and u.deleted_at is null";

const SELECT_MEMBER = `
  select u.id, u.email::text as email, p.handle::text as handle, p.plan, to_jsonb(u.created_at) #>> '{}' as created_at
  from auth.users u join public.profiles p on p.id = u.id`;

/**
 * Creates the auth.users row the way GoTrue would (confirmed email, email provider); the trigger on
 * auth.users makes the profile (whose own trigger switches on all six collection types).
 */
export async function createMember(input: {
  email: string;
  password?: string;
  plan?: "free" | "pro";
  handle?: string;
}): Promise<MemberSummary> {
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  return asService(async (tx) => {
    const [member] = await tx.query<{ id: string }>(
      `insert into auth.users (instance_id, aud, role, email, encrypted_password, email_confirmed_at,
                               confirmation_token, recovery_token, email_change_token_new, email_change,
                               raw_app_meta_data, raw_user_meta_data)
       values ('00000000-0000-0000-0000-000000000000', 'authenticated', 'authenticated', lower($1), $2, now(),
               '', '', '', '', '{"provider": "email", "providers": ["email"]}', $3)
       returning id`,
      [input.email.trim(), passwordHash, JSON.stringify(input.handle ? { handle: input.handle } : {})],
    );
    if (!member) throw new Error("member insert returned nothing");
    if (input.plan && input.plan !== "free") {
      await tx.query("update public.profiles set plan = $2 where id = $1", [member.id, input.plan]);
    }
    return memberById(tx, member.id);
  });
}

/** The member an auth.users id stands for; the profile is made on first use if a trigger missed it. */
export async function memberById(tx: Queryable, id: string): Promise<MemberSummary> {
  let [summary] = await tx.query<MemberSummary>(`${SELECT_MEMBER} where u.id = $1`, [id]);
  if (!summary) {
    await tx.query(
      "select app_private.ensure_profile(u.id, u.email, coalesce(u.raw_user_meta_data, '{}'::jsonb)) from auth.users u where u.id = $1",
      [id],
    );
    [summary] = await tx.query<MemberSummary>(`${SELECT_MEMBER} where u.id = $1`, [id]);
  }
  if (!summary) throw new Error(`no user ${id}`);
  return summary;
}

export async function findMemberByEmail(email: string): Promise<MemberSummary | undefined> {
  const [row] = await asService((tx) =>
    tx.query<MemberSummary>(`${SELECT_MEMBER} where ${SAME_EMAIL}`, [email.trim()]),
  );
  return row;
}

export async function setPlan(email: string, plan: "free" | "pro"): Promise<MemberSummary | undefined> {
  const [row] = await asService((tx) =>
    tx.query<{ id: string }>(
      `update public.profiles p set plan = $2 from auth.users u where u.id = p.id and ${SAME_EMAIL} returning p.id`,
      [email.trim(), plan],
    ),
  );
  return row ? findMemberByEmail(email) : undefined;
}
