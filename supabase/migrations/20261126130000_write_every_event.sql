-- Every event is written, whether or not an endpoint wants it: the pullable event log (GET /events) and
-- redelivery since a time (POST /webhook-endpoints/{id}/redeliver) read the member's events, kept 30
-- days (the upkeep task webhook_deliveries purges them). Deliveries are still made only for the
-- enabled endpoints that subscribe. The function is the one of 20261123110000_create_webhooks.sql
-- without its early return when no endpoint wanted the event.
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
  if v_snapshot is not null then
    -- The name comes from the generated trigger definition, never from a member.
    execute format('select to_jsonb(v) from %s v where v.id = $1', v_snapshot) into v_view using (v_row ->> 'id')::uuid;
    v_row := coalesce(v_view, v_row);
  end if;
  insert into app_private.webhook_events (type, record_id, data)
  values (v_type, (v_row ->> 'id')::uuid, v_row) returning id into v_event;
  insert into public.webhook_deliveries (endpoint_id, owner_id, event_id, event_type, next_attempt_at)
  select e.id, e.owner_id, v_event, v_type, clock_timestamp() from public.webhook_endpoints e
   where e.owner_id = any (v_audience) and e.enabled and (v_type = any (e.events) or '*' = any (e.events));
  return null;
end $$;
revoke all on function app_private.emit_webhook_event() from public;
