-- Undoing a deletion puts its rows back one statement a table, not one a row.
--
-- app_private.restore_deleted ran a dynamic insert (parsed and planned each time) and an update of the
-- ledger for every row the deletion took: 0.3 ms a row, 1.2 s to undo the deletion of a collection of
-- 4,000 items (docs/benchmark.md). It now inserts each table's rows in one statement
-- (jsonb_populate_recordset) and marks the cascaded ledger rows undone in one update. What remains a row
-- is what the rows' own triggers and foreign keys do.
--
-- The deleted record's own table goes first, then the others in the order their first row was recorded.
-- What went with a record is what referred to it, one level deep: items to their collection, check-ins
-- to their streak (test/activity/cascade.test.ts checks that no recorded table refers to another that
-- refers to a third). So every row's parent is back before the row, also when the row was deleted before
-- its parent in the same transaction. Foreign keys are checked at the end of each statement, so rows of
-- one table may refer to each other in any order. The ledger entries marked undone are the ones whose
-- rows went back. The answer lists the record first, then the rest table by table, each in the order it
-- was recorded.
--
-- The insert names the columns the stored rows hold, so a column added since the deletion (the ledger
-- keeps 30 days) takes its default, where filling every column from the JSON wrote NULL into it and a
-- NOT NULL column refused the whole undo; a generated column is computed, not written.
create or replace function app_private.restore_deleted(p_activity uuid) returns uuid[]
language plpgsql security definer set search_path = '' as $$
declare
  v_root public.activity;
  v_table record;
  v_ids uuid[] := '{}';
  v_entries uuid[] := '{}';
  v_columns text;
begin
  select * into v_root from public.activity
   where id = p_activity and owner_id = (select auth.uid()) and before is not null and operation like '%.deleted';
  if not found then
    return null;
  end if;
  for v_table in
    select a.record_table,
           jsonb_agg(a.before order by a.cascaded, a.created_at) as rows,
           array_agg(a.record_id order by a.cascaded, a.created_at) as ids,
           array_agg(a.id) as entries
      from public.activity a
     where a.id = v_root.id
        or (a.xact = v_root.xact and a.owner_id = v_root.owner_id and a.cascaded and not v_root.cascaded
            and a.before is not null and a.undone_at is null)
     group by a.record_table
     order by bool_and(a.cascaded), min(a.created_at)
  loop
    -- One deletion's rows of a table were recorded in one transaction, with the same columns.
    select string_agg(pg_catalog.quote_ident(c.attname), ', ' order by c.attnum) into v_columns
      from pg_catalog.pg_attribute c
     where c.attrelid = v_table.record_table::regclass and c.attnum > 0 and not c.attisdropped
       and c.attgenerated = '' and (v_table.rows -> 0) ? c.attname::text;
    if v_columns is null then
      raise exception 'the deleted rows of % hold none of its columns', v_table.record_table;
    end if;
    -- Identity values are put back as they were, as every other column's are.
    execute format('insert into %s (%s) overriding system value select %s from jsonb_populate_recordset(null::%s, $1)',
                   v_table.record_table::regclass, v_columns, v_columns, v_table.record_table::regclass)
      using v_table.rows;
    v_ids := v_ids || v_table.ids;
    v_entries := v_entries || v_table.entries;
  end loop;
  -- The record's own entry was marked when the undo claimed it.
  update public.activity set undone_at = clock_timestamp(), undone_by = app_private.current_actor()
   where id = any(v_entries) and id <> v_root.id;
  return v_ids;
end $$;
