import { profile } from "../../registry/resources/profile.ts";
import type { ToolHandler } from "./context.ts";
import { toRecord } from "./record.ts";

type Row = { r: Record<string, unknown> };

/** The profile is the member's own row, addressed without an id. */
export const getProfile: ToolHandler<"profile_get"> = async ({ tx, memberId }) => {
  const [row] = await tx.query<Row>("select to_jsonb(t) as r from public.profiles t where t.id = $1", [memberId]);
  if (!row) throw new Error("member has no profile");
  return toRecord(profile, row.r);
};

export const updateProfile: ToolHandler<"profile_update"> = async (ctx) => {
  // The strict input schema admits writable fields only; the filter keeps column names from the registry.
  const columns = Object.keys(ctx.input).filter((key) => key in profile.fields);
  if (columns.length === 0) return getProfile(ctx);
  const list = columns.map((c) => `"${c}"`).join(", ");
  const [row] = await ctx.tx.query<Row>(
    `update public.profiles t set (${list}) = (
       select ${list} from jsonb_populate_record(null::public.profiles, $1::jsonb))
     where t.id = $2 returning to_jsonb(t) as r`,
    [JSON.stringify(ctx.input), ctx.memberId],
  );
  if (!row) throw new Error("member has no profile");
  return toRecord(profile, row.r);
};
