import { randomInt } from "node:crypto";
import { asService } from "../db/index.ts";
import { hashPassword } from "./passwords.ts";

export interface MemberSummary {
  id: string;
  email: string;
  handle: string;
  plan: "free" | "pro";
  created_at: string;
}

// citext's own "=" lives in the extensions schema, which is not on the search path: spelled out,
// the comparison ignores case and uses the unique index; a bare "=" would compare as text.
const SAME_EMAIL = "m.email operator(extensions.=) $1::extensions.citext";

const SELECT_MEMBER = `
  select m.id, m.email::text as email, p.handle::text as handle, p.plan, to_jsonb(m.created_at) #>> '{}' as created_at
  from app_private.members m join public.profiles p on p.id = m.id`;

/** Creates the account and its profile (whose trigger switches on all six collection types). */
export async function createMember(input: {
  email: string;
  password?: string;
  plan?: "free" | "pro";
  handle?: string;
}): Promise<MemberSummary> {
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const base = (input.handle ?? handleFromEmail(input.email)).slice(0, 24);
  return asService(async (tx) => {
    const [member] = await tx.query<{ id: string }>(
      "insert into app_private.members (email, password_hash) values ($1, $2) returning id",
      [input.email.trim(), passwordHash],
    );
    if (!member) throw new Error("member insert returned nothing");
    for (let attempt = 0; attempt < 20; attempt++) {
      const handle = attempt === 0 ? base : `${base.slice(0, 24)}_${randomInt(10_000, 99_999)}`;
      const inserted = await tx.query(
        `insert into public.profiles (id, handle, display_name, plan) values ($1, $2, $3, $4)
         on conflict (handle) do nothing returning id`,
        [member.id, handle, handle, input.plan ?? "free"],
      );
      if (inserted.length) break;
    }
    const [summary] = await tx.query<MemberSummary>(`${SELECT_MEMBER} where m.id = $1`, [member.id]);
    if (!summary) throw new Error("could not find a free handle");
    return summary;
  });
}

export async function findMemberByEmail(email: string): Promise<MemberSummary | undefined> {
  const [row] = await asService((tx) => tx.query<MemberSummary>(`${SELECT_MEMBER} where ${SAME_EMAIL}`, [email.trim()]));
  return row;
}

export async function setPlan(email: string, plan: "free" | "pro"): Promise<MemberSummary | undefined> {
  const [row] = await asService((tx) =>
    tx.query<{ id: string }>(
      `update public.profiles p set plan = $2 from app_private.members m where m.id = p.id and ${SAME_EMAIL} returning p.id`,
      [email.trim(), plan],
    ),
  );
  return row ? findMemberByEmail(email) : undefined;
}

function handleFromEmail(email: string): string {
  const local = (email.split("@")[0] ?? "").replace(/[^A-Za-z0-9_]/g, "_").replace(/^_+|_+$/g, "");
  return local.length >= 3 ? local : `member_${local}`.slice(0, 24);
}
