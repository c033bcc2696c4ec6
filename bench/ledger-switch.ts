// The activity ledger on and off in one database, for bench/activity-ab.ts (whole requests) and
// bench/ledger-sql.ts (the statements alone). "off" is the store as it was before issue 33: the event
// function of 20261126130000_write_every_event.sql (no actor, no previous values, no ledger entry), no actor
// column defaults, and the ledger's own triggers (deletions, webhook endpoints) disabled. "on" puts back
// what the migrations made, read from the database the first time.
import { asService } from "../lib/db/index.ts";
import type { Target } from "./databases.ts";
import { migrationFunction } from "./migration-sql.ts";

export type LedgerVariant = "on" | "off";

/** The event function before the ledger, as its migration wrote it. */
const WITHOUT_LEDGER = migrationFunction("20261126130000_write_every_event", "app_private.emit_webhook_event");
const ACTOR_COLUMNS = ["actor_kind", "actor_id", "actor_surface"];

/** What "on" puts back: the event function and the actor defaults as the migrations left them. */
let ledger: { emit: string; defaults: { column: string; expr: string }[] } | undefined;

export async function setLedger(target: Target, variant: LedgerVariant): Promise<void> {
  await target.open();
  await asService(async (tx) => {
    if (!ledger) {
      const [emit] = await tx.query<{ def: string }>(
        "select pg_get_functiondef('app_private.emit_webhook_event()'::regprocedure) as def",
      );
      const defaults = await tx.query<{ column: string; expr: string }>(
        `select a.attname as column, pg_get_expr(d.adbin, d.adrelid) as expr from pg_attrdef d
           join pg_attribute a on a.attrelid = d.adrelid and a.attnum = d.adnum
          where d.adrelid = 'app_private.webhook_events'::regclass and a.attname = any ($1)`,
        [ACTOR_COLUMNS],
      );
      ledger = { emit: emit?.def ?? "", defaults };
    }
    await tx.query(variant === "on" ? ledger.emit : WITHOUT_LEDGER);
    for (const column of ACTOR_COLUMNS) {
      const expr = ledger.defaults.find((d) => d.column === column)?.expr;
      await tx.query(
        `alter table app_private.webhook_events alter column ${column} ${variant === "on" && expr ? `set default ${expr}` : "drop default"}`,
      );
    }
    const triggers = await tx.query<{ tgname: string; rel: string }>(
      // The ledger's own triggers: the per-source functions the generator writes (app_private.activity_<operation>).
      `select t.tgname, t.tgrelid::regclass::text as rel from pg_trigger t join pg_proc p on p.oid = t.tgfoid
        where not t.tgisinternal and p.pronamespace = 'app_private'::regnamespace and p.proname like 'activity\\_%'`,
    );
    for (const t of triggers)
      await tx.query(`alter table ${t.rel} ${variant === "on" ? "enable" : "disable"} trigger "${t.tgname}"`);
  });
  await target.close();
}
