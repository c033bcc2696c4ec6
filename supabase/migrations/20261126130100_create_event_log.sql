-- The pullable event log (GET /events) and per-record sequence numbers, over the outbox's events.
--
-- Order: (txid, log_position). txid is the writing transaction's id, log_position the insert order.
-- A reader returns only events whose transaction is older than the oldest one still running
-- (pg_snapshot_xmin), so an event that commits later can never sort before a cursor already handed
-- out (docs/decisions/0018-event-log.md). On PGlite (one writer) the same query holds trivially.
--
-- member_id / other_member_id: the members the event is for (its audience: the owner, or both sides
-- of a message or follow), set from the event kind by app_private.webhook_event_members, which
-- scripts/build-event-triggers.ts generates from the registry. Events written before this migration
-- keep them null and stay out of the log (they are purged like before).
alter table app_private.webhook_events
  add column log_position bigint generated always as identity,
  add column txid xid8 not null default pg_current_xact_id(),
  add column member_id uuid,
  add column other_member_id uuid,
  add column record_sequence bigint;
create index webhook_events_member_log_idx on app_private.webhook_events (member_id, txid, log_position)
  where member_id is not null;
create index webhook_events_other_member_log_idx on app_private.webhook_events (other_member_id, txid, log_position)
  where other_member_id is not null;

-- The last sequence number of each record: one more per event, so a receiver applies an update only
-- when its sequence is above the last it applied. A counter row outlives the 30 days of events (an
-- update a year later continues the count); the upkeep drops it only 30 days after a record's last
-- event when that event ended the record (deleted) or no later one can come (a check-in, a ping).
create table app_private.record_event_sequences (
  record_id uuid primary key,
  last_sequence bigint not null,
  last_type text not null,
  touched_at timestamptz not null default clock_timestamp()
);
alter table app_private.record_event_sequences enable row level security;
revoke all on app_private.record_event_sequences from anon, authenticated;

-- Stamps each new event (its own BEFORE INSERT trigger, so the generated emit function stays as it is).
create function app_private.stamp_webhook_event() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_members uuid[];
  -- A record without an id of its own (a member's collection type: owner and type) is keyed by those.
  v_record uuid := coalesce(new.record_id, md5(concat_ws(':', split_part(new.type, '.', 1), new.data ->> 'owner_id', new.data ->> 'type'))::uuid);
begin
  if v_record is not null then
    insert into app_private.record_event_sequences as s (record_id, last_sequence, last_type)
    values (v_record, 1, new.type)
    on conflict (record_id) do update
      set last_sequence = s.last_sequence + 1, last_type = excluded.last_type, touched_at = excluded.touched_at
    returning s.last_sequence into new.record_sequence;
  end if;
  v_members := app_private.webhook_event_members(new.type, new.data);
  new.member_id := v_members[1];
  new.other_member_id := nullif(v_members[2], v_members[1]);
  return new;
end $$;
revoke all on function app_private.stamp_webhook_event() from public;
create trigger webhook_events_stamp before insert on app_private.webhook_events
  for each row execute function app_private.stamp_webhook_event();

-- Members read the events they are the audience of, under RLS; the columns the log answers only.
grant select (id, type, record_id, data, created_at, log_position, txid, member_id, other_member_id, record_sequence)
  on app_private.webhook_events to authenticated;
create policy "members read the events they receive" on app_private.webhook_events
  for select to authenticated
  using (member_id = (select auth.uid()) or other_member_id = (select auth.uid()));

-- Member-callable: queue every kept event since p_since (at most limit_keep_events_days back) that the
-- caller's endpoint subscribes to, in log order; answers how many and the time used. An event already
-- pending for the endpoint is not queued twice, so repeating the call while a redelivery runs adds
-- nothing. No row: not the caller's endpoint.
create function app_private.redeliver_webhook_events(p_endpoint uuid, p_since timestamptz)
returns table (queued integer, since timestamptz)
language plpgsql security definer set search_path = '' as $$
declare
  v_owner uuid;
  v_events text[];
  v_since timestamptz := greatest(p_since, now() - make_interval(days => app_private.limit_keep_events_days()));
  v_count integer;
begin
  select e.owner_id, e.events into v_owner, v_events
    from public.webhook_endpoints e where e.id = p_endpoint and e.owner_id = (select auth.uid());
  if v_owner is null then
    return;
  end if;
  insert into public.webhook_deliveries (endpoint_id, owner_id, event_id, event_type, next_attempt_at)
  select p_endpoint, v_owner, ev.id, ev.type, clock_timestamp()
    from app_private.webhook_events ev
   where (ev.member_id = v_owner or ev.other_member_id = v_owner)
     and ev.created_at >= v_since
     and (ev.type = any (v_events) or '*' = any (v_events))
     and not exists (
       select 1 from public.webhook_deliveries d
        where d.endpoint_id = p_endpoint and d.event_id = ev.id and d.status = 'pending')
   order by ev.txid, ev.log_position;
  get diagnostics v_count = row_count;
  return query select v_count, v_since;
end $$;
revoke all on function app_private.redeliver_webhook_events(uuid, timestamptz) from public;
grant execute on function app_private.redeliver_webhook_events(uuid, timestamptz) to authenticated;
