import { isScope, type Scope } from "../../registry/scopes.ts";
import { createMember, findMemberByEmail, setPlan } from "../auth/members.ts";
import { limitsToStore } from "../auth/limits-json.ts";
import { createToken, listTokens, revokeToken } from "../auth/tokens.ts";
import { checkLimits, limitChoices } from "../domain/credential-limit-choices.ts";
import { required, UsageError } from "./args.ts";
import { blockCommand, unblockCommand } from "./block-commands.ts";

export const USAGE = `Usage: npm run --silent cli -- <command>
  member create --email E --password P [--plan free|pro] [--handle H]   prints the member as JSON
  member plan --email E --plan free|pro                                 changes the plan
  token create --email E --scopes a:read,b:write [--days N] [--name X]  prints only the token
      [--collections id,id] [--read-only] [--confirm-destructive] [--tools a,b]   limits beyond the scopes
  token list --email E                                                  prints the member's tokens (never secrets)
  token revoke --id ID                                                  revokes at once
  block --email E --blocks F                                            E blocks F (ends follows both ways)
  unblock --email E --blocks F                                          E lifts the block on F`;

type Command = (flags: Record<string, string>) => Promise<string>;

const plan = (value: string | undefined) => {
  if (value === undefined) return undefined;
  if (value !== "free" && value !== "pro") throw new UsageError("--plan must be free or pro");
  return value;
};

const list = (value: string | undefined) =>
  value === undefined
    ? undefined
    : value
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);

const flag = (flags: Record<string, string>, name: string) => {
  const value = flags[name];
  if (value === undefined) return false;
  if (value !== "true") throw new UsageError(`--${name} takes no value`);
  return true;
};

/** The limits flags, checked like the token page checks them (own collections, known tools). */
async function limitsFrom(flags: Record<string, string>, memberId: string) {
  for (const name of ["collections", "tools"]) {
    if (flags[name] === "true" || list(flags[name])?.length === 0)
      throw new UsageError(`--${name} needs a comma-separated list`);
  }
  const limits = {
    collections: list(flags.collections),
    readOnly: flag(flags, "read-only"),
    confirmDestructive: flag(flags, "confirm-destructive"),
    tools: list(flags.tools),
  };
  const check = checkLimits(limits, await limitChoices(memberId));
  if (!check.ok) throw new UsageError(check.error);
  return limitsToStore(limits);
}

const memberOf = async (email: string) => {
  const member = await findMemberByEmail(email);
  if (!member) throw new UsageError(`no member with email ${email}`);
  return member;
};

/** Operator commands. Each answers the text to print; a UsageError means bad input (exit 2). */
export const COMMANDS: Record<string, Command> = {
  "member create": async (flags) =>
    JSON.stringify(
      await createMember({
        email: required(flags, "email"),
        password: required(flags, "password"),
        plan: plan(flags.plan),
        handle: flags.handle,
      }),
    ),
  "member plan": async (flags) => {
    const updated = await setPlan(required(flags, "email"), plan(required(flags, "plan")) ?? "free");
    if (!updated) throw new UsageError(`no member with email ${flags.email}`);
    return JSON.stringify(updated);
  },
  "token create": async (flags) => {
    const member = await memberOf(required(flags, "email"));
    const scopes = required(flags, "scopes")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = scopes.filter((s) => !isScope(s));
    if (unknown.length) throw new UsageError(`unknown scope(s): ${unknown.join(", ")}`);
    const days = flags.days === undefined ? undefined : Number(flags.days);
    const limits = await limitsFrom(flags, member.id);
    const { token } = await createToken({
      memberId: member.id,
      name: flags.name ?? "cli",
      scopes: scopes as Scope[],
      days,
      limits,
    }).catch((error: unknown) => {
      throw error instanceof RangeError ? new UsageError(error.message) : error;
    });
    return token;
  },
  "token list": async (flags) => {
    const member = await memberOf(required(flags, "email"));
    return JSON.stringify(await listTokens(member.id));
  },
  "token revoke": async (flags) => {
    const id = required(flags, "id");
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw new UsageError("--id must be a token id (uuid)");
    if (!(await revokeToken(id))) throw new UsageError(`no live token with id ${id}`);
    return JSON.stringify({ id, revoked: true });
  },
  block: blockCommand,
  unblock: unblockCommand,
};
