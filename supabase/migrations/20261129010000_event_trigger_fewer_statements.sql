-- An event's trigger runs fewer statements (bench/writes-ab.ts): each query a PL/pgSQL function runs
-- starts and ends an executor, which on a member's write costs more than the expression it computes.
-- - The audience (the members named by the trigger's columns) from a loop of plain expressions, where a query
--   over unnest() with array_agg(distinct …) sorted one or two values.
-- - The deliveries are inserted only when one of the audience has an enabled endpoint: a look-up on the
--   endpoints' owner index, where the insert … select opened the deliveries table and its five indexes for
--   every event, most of which no endpoint wants.
create or replace function app_private.emit_webhook_event() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_type text := tg_argv[0];
  v_row jsonb := case when tg_op = 'DELETE' then to_jsonb(old) else to_jsonb(new) end;
  v_snapshot text;
  v_view jsonb;
  v_audience uuid[] := '{}';
  v_recipient uuid;
  v_event uuid;
  v_claims jsonb := nullif(current_setting('request.jwt.claims', true), '')::jsonb;
  v_actor jsonb := v_claims -> 'actor';
  v_kind text := v_actor ->> 'kind';
  v_member uuid;
  v_before jsonb;
  v_writable text[];
  v_old jsonb;
  v_column text;
  i integer;
begin
  for i in 1 .. tg_nargs - 1 loop
    if tg_argv[i] like 'snapshot=%' then
      v_snapshot := substr(tg_argv[i], 10);
    else
      v_recipient := (v_row ->> tg_argv[i])::uuid;
      if v_recipient is not null and not v_recipient = any (v_audience) then
        v_audience := v_audience || v_recipient;
      end if;
    end if;
  end loop;
  if (v_kind = 'token' or v_kind = 'oauth') and tg_op <> 'DELETE' then
    v_writable := app_private.activity_writable(v_type);
    if v_writable is not null then
      if tg_op = 'UPDATE' then
        -- A loop of plain expressions, not a query over jsonb_each(): a query starts an executor each
        -- time, about 40 µs more an update on Postgres and 110 on PGlite (bench/ledger-sql.ts).
        v_old := to_jsonb(old);
        foreach v_column in array v_writable loop
          if v_old -> v_column is distinct from v_row -> v_column then
            v_before := coalesce(v_before, '{}') || jsonb_build_object(v_column, v_old -> v_column);
          end if;
        end loop;
      end if;
      if tg_op = 'INSERT' or v_before is not null then
        v_member := (v_claims ->> 'sub')::uuid;
      end if;
    end if;
  end if;
  if v_snapshot is not null then
    -- The name comes from the generated trigger definition, never from a member.
    execute format('select to_jsonb(v) from %s v where v.id = $1', v_snapshot) into v_view using (v_row ->> 'id')::uuid;
    v_row := coalesce(v_view, v_row);
  end if;
  insert into app_private.webhook_events
    (type, record_id, data, actor_kind, actor_id, actor_surface, actor_member, before, undo_of)
  values (v_type, (v_row ->> 'id')::uuid, v_row, coalesce(v_kind, 'service'), v_actor ->> 'id', v_actor ->> 'surface',
    v_member, v_before, nullif(current_setting('pds.undo_of', true), '')::uuid)
  returning id into v_event;
  if exists (select from public.webhook_endpoints e where e.owner_id = any (v_audience) and e.enabled) then
    insert into public.webhook_deliveries (endpoint_id, owner_id, event_id, event_type, next_attempt_at)
    select e.id, e.owner_id, v_event, v_type, clock_timestamp() from public.webhook_endpoints e
     where e.owner_id = any (v_audience) and e.enabled and (v_type = any (e.events) or '*' = any (e.events));
  end if;
  return null;
end $$;
revoke all on function app_private.emit_webhook_event() from public;
