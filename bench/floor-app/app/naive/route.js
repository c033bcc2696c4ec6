// The naive route: what GET /collections does, written plainly with postgres.js (no registry, no
// validation, no rate limit, no cache): token look-up, then the member's RLS transaction.
import { createHash } from "node:crypto";
import postgres from "postgres";

export const dynamic = "force-dynamic";
const sql = postgres(process.env.DATABASE_URL, { max: 10, prepare: true, onnotice: () => {} });

export async function GET(request) {
  const token = /^Bearer (\S+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
  if (!token) return Response.json({ code: "unauthorized" }, { status: 401 });
  const hash = createHash("sha256").update(token).digest();
  const [row] = await sql`select member_id from app_private.access_tokens
    where token_hash = ${hash} and revoked_at is null and expires_at > now()`;
  if (!row) return Response.json({ code: "unauthorized" }, { status: 401 });
  const claims = JSON.stringify({ sub: row.member_id, role: "authenticated" });
  const data = await sql.begin(async (tx) => {
    await tx`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', ${claims}, true)`;
    return tx`select to_jsonb(t) as r from public.collections t where t.owner_id = ${row.member_id}
      order by t.created_at desc, t.id desc limit 51`;
  });
  return Response.json({ data: data.slice(0, 50).map((d) => d.r), has_more: data.length > 50 });
}
