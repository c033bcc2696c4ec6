-- The ledger's entries kept in the events (20261127200000_ledger_from_events.sql), made cheaper on measurement
-- (bench/ledger-sql.ts, bench/results/2026-11-27-ledger-from-events.md):
-- - no index of their own: webhook_events_ledger_idx cost 60-90 µs a credential's write on PGlite. The entries
--   are found through the event log's index on member_id, which for every kind the ledger records is the
--   writer (the first of the event's audience: owner, sender, follower, the profile itself);
-- - an update's previous values come from a loop of plain expressions instead of a query over jsonb_each(),
--   which started an executor each time: about 40 µs more an update on Postgres and 110 on PGlite.
drop index app_private.webhook_events_ledger_idx;

create or replace function app_private.emit_webhook_event() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_type text := tg_argv[0];
  v_row jsonb := case when tg_op = 'DELETE' then to_jsonb(old) else to_jsonb(new) end;
  v_columns text[] := '{}';
  v_snapshot text;
  v_view jsonb;
  v_audience uuid[];
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
      v_columns := v_columns || tg_argv[i];
    end if;
  end loop;
  select array_agg(distinct (v_row ->> c)::uuid) into v_audience
    from unnest(v_columns) as c where v_row ->> c is not null;
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
  insert into public.webhook_deliveries (endpoint_id, owner_id, event_id, event_type, next_attempt_at)
  select e.id, e.owner_id, v_event, v_type, clock_timestamp() from public.webhook_endpoints e
   where e.owner_id = any (v_audience) and e.enabled and (v_type = any (e.events) or '*' = any (e.events));
  return null;
end $$;
revoke all on function app_private.emit_webhook_event() from public;

-- The member's ledger entries kept in the events, newest first (the event log's order, read backwards along
-- webhook_events_member_log_idx until p_limit entries are found): those of one credential (p_kind, p_actor),
-- one entry (p_entry), or with p_undoable only the updates that can still be undone (of a record with an
-- id, not undone, not made by an undo). Members have no grant on the events' actor columns (the other side of a message would see
-- the sender's token), so they read their own entries through this function alone.
create or replace function app_private.credential_writes(
  p_since timestamptz, p_kind text, p_actor text, p_entry uuid, p_undoable boolean, p_limit integer)
returns table (
  id uuid, actor_kind text, actor_id text, surface text, operation text, record_id uuid, undo_of uuid,
  before jsonb, after jsonb, undone_at timestamptz, created_at timestamptz, record_sequence bigint)
language sql stable security definer set search_path = '' as $$
  select e.id, e.actor_kind, e.actor_id, e.actor_surface, e.type, e.record_id, e.undo_of, e.before, e.data,
         e.undone_at, e.created_at, e.record_sequence
    from app_private.webhook_events e
   where e.member_id = (select auth.uid()) and e.actor_member = (select auth.uid()) and e.created_at > p_since
     and (p_kind is null or (e.actor_kind = p_kind and e.actor_id = p_actor))
     and (p_entry is null or e.id = p_entry)
     and (not p_undoable or (e.before is not null and e.record_id is not null and e.undone_at is null and e.undo_of is null))
   order by e.txid desc, e.log_position desc
   limit p_limit
$$;

-- A deleted account's entries, found along the member index like the reads above.
create or replace function app_private.delete_member_activity() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  delete from public.activity where owner_id = old.id;
  update app_private.webhook_events set actor_member = null, before = null, undone_by = null
   where member_id = old.id and actor_member = old.id;
  return null;
end $$;
