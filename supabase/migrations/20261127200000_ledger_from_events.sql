-- The activity ledger's creates and updates are read from the events every write already inserts, instead
-- of a second row per write (issue 33 allows 10% on the create and update rows of npm run bench; the
-- second row's trigger cost 8-25% there: bench/results/2026-11-27-ledger-from-events.md). The event
-- already carries the actor; this adds who the credential belongs to and, for an update, the previous
-- values of the writable columns it changed, which is what undo puts back. Deletions (whole row image,
-- what went with them), refused attempts and the writes of tables without events (webhook endpoints)
-- stay in public.activity. docs/decisions/0021-activity-and-undo.md.
--
-- actor_member: set only on a credential's write that the ledger records (a token's or an app's, of a kind
-- app_private.activity_writable knows, and for an update only when a writable column changed), so the
-- partial index below holds the ledger's entries alone.
alter table app_private.webhook_events
  add column actor_member uuid,
  add column before jsonb,
  add column undo_of uuid,
  add column undone_at timestamptz,
  add column undone_by jsonb;
create index webhook_events_ledger_idx on app_private.webhook_events (actor_member, created_at desc, id desc)
  where actor_member is not null;

-- As 20261126130000_write_every_event.sql, with the actor read once (the claims parsed once instead of in
-- three column defaults) and the ledger's part: for a credential's write of a kind the ledger records,
-- the member it acts for and an update's previous writable values. The block between the ledger markers
-- is what bench/activity-ab.ts takes away to measure what it costs.
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
  -- ledger: start
  if (v_kind = 'token' or v_kind = 'oauth') and tg_op <> 'DELETE' then
    v_writable := app_private.activity_writable(v_type);
    if v_writable is not null then
      if tg_op = 'UPDATE' then
        select jsonb_object_agg(o.key, o.value) into v_before from jsonb_each(to_jsonb(old)) o
         where o.key = any (v_writable) and o.value is distinct from v_row -> o.key;
      end if;
      if tg_op = 'INSERT' or v_before is not null then
        v_member := (v_claims ->> 'sub')::uuid;
      end if;
    end if;
  end if;
  -- ledger: end
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

-- The member's ledger entries kept in the events, newest first: those of one credential (p_kind, p_actor),
-- one entry (p_entry), or with p_undoable only the updates that can still be undone (of a record with an
-- id, not undone, not made by an undo). Members have no grant on the events' actor columns (the other side of a message would see
-- the sender's token), so they read their own entries through this function alone.
create function app_private.credential_writes(
  p_since timestamptz, p_kind text, p_actor text, p_entry uuid, p_undoable boolean, p_limit integer)
returns table (
  id uuid, actor_kind text, actor_id text, surface text, operation text, record_id uuid, undo_of uuid,
  before jsonb, after jsonb, undone_at timestamptz, created_at timestamptz, record_sequence bigint)
language sql stable security definer set search_path = '' as $$
  select e.id, e.actor_kind, e.actor_id, e.actor_surface, e.type, e.record_id, e.undo_of, e.before, e.data,
         e.undone_at, e.created_at, e.record_sequence
    from app_private.webhook_events e
   where e.actor_member = (select auth.uid()) and e.created_at > p_since
     and (p_kind is null or (e.actor_kind = p_kind and e.actor_id = p_actor))
     and (p_entry is null or e.id = p_entry)
     and (not p_undoable or (e.before is not null and e.record_id is not null and e.undone_at is null and e.undo_of is null))
   order by e.created_at desc, e.id desc
   limit p_limit
$$;
revoke all on function app_private.credential_writes(timestamptz, text, text, uuid, boolean, integer) from public;
grant execute on function app_private.credential_writes(timestamptz, text, text, uuid, boolean, integer) to authenticated;

-- Whether the record an update entry changed has had no event since (its sequence is still the entry's):
-- undo puts the previous values back only then. The caller locks the row first, so no write can slip in
-- between this check and the undo's update.
create function app_private.unchanged_since(p_entry uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce((
    select s.last_sequence = e.record_sequence
      from app_private.webhook_events e
      join app_private.record_event_sequences s on s.record_id = e.record_id
     where e.id = p_entry and e.actor_member = (select auth.uid())), false)
$$;
revoke all on function app_private.unchanged_since(uuid) from public;
grant execute on function app_private.unchanged_since(uuid) to authenticated;

-- Undo claims an entry once, in whichever store keeps it.
create or replace function app_private.claim_activity_undo(p_activity uuid) returns boolean
language plpgsql security definer set search_path = '' as $$
begin
  update public.activity set undone_at = clock_timestamp(), undone_by = app_private.current_actor()
   where id = p_activity and owner_id = (select auth.uid()) and undone_at is null;
  if found then
    return true;
  end if;
  update app_private.webhook_events set undone_at = clock_timestamp(), undone_by = app_private.current_actor()
   where id = p_activity and actor_member = (select auth.uid()) and undone_at is null;
  return found;
end $$;

-- A deleted account takes its activity with it: its entries in the events too. The events stay for the
-- other members they were for (a message's recipient); only the ledger's part of them goes.
create or replace function app_private.delete_member_activity() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  delete from public.activity where owner_id = old.id;
  update app_private.webhook_events set actor_member = null, before = null, undone_by = null
   where actor_member = old.id;
  return null;
end $$;
