/** A SQL string literal, for the generators that write triggers from the registry. */
export const sqlLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * A block dropping every trigger that calls `fn` (e.g. 'app_private.record_activity()'), so a
 * generated migration can recreate them all and apply over any earlier version of itself.
 */
export const dropTriggersCallingSql = (fn: string) => `do $$
declare
  t record;
begin
  for t in select tgname, tgrelid::regclass as rel from pg_trigger
    where not tgisinternal and tgfoid = ${sqlLiteral(fn)}::regprocedure loop
    execute format('drop trigger %I on %s', t.tgname, t.rel);
  end loop;
end $$;`;
