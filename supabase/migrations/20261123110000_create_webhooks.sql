-- Webhooks: endpoints (a member resource), their encrypted secrets, and the transactional outbox
-- (events + one delivery row per endpoint), written by triggers in the transaction of the change,
-- so a rolled-back write sends nothing and a committed one is delivered even after a crash.
create table public.webhook_endpoints (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  url text not null check (url ~ '^https?://' and char_length(url) <= 2000),
  events text[] not null check (cardinality(events) between 1 and 100),
  enabled boolean not null default true,
  description text not null default '' check (char_length(description) <= 500),
  failing_since timestamptz,
  disabled_reason text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index webhook_endpoints_owner_created_idx on public.webhook_endpoints (owner_id, created_at desc, id desc);
create trigger webhook_endpoints_touch before update on public.webhook_endpoints
  for each row execute function app_private.touch_updated_at();

alter table public.webhook_endpoints enable row level security;
revoke all on public.webhook_endpoints from anon, authenticated;
grant select, delete on public.webhook_endpoints to authenticated;
grant insert (url, events, enabled, description) on public.webhook_endpoints to authenticated;
grant update (url, events, enabled, description) on public.webhook_endpoints to authenticated;
create policy "members read their own webhook endpoints" on public.webhook_endpoints
  for select to authenticated using (owner_id = (select auth.uid()));
create policy "members create their own webhook endpoints" on public.webhook_endpoints
  for insert to authenticated with check (owner_id = (select auth.uid()));
create policy "members change their own webhook endpoints" on public.webhook_endpoints
  for update to authenticated using (owner_id = (select auth.uid())) with check (owner_id = (select auth.uid()));
create policy "members delete their own webhook endpoints" on public.webhook_endpoints
  for delete to authenticated using (owner_id = (select auth.uid()));

-- At most 10 per member; the owner's profile row is locked so two concurrent creates cannot both
-- pass the count. Re-enabling an endpoint the service disabled clears its failure record.
create function app_private.enforce_webhook_endpoint_rules() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_op = 'INSERT' then
    perform 1 from public.profiles where id = new.owner_id for update;
    if (select count(*) from public.webhook_endpoints where owner_id = new.owner_id) >= 10 then
      raise exception 'at most 10 webhook endpoints per member' using errcode = '42501';
    end if;
  elsif new.enabled and not old.enabled then
    new.failing_since := null;
    new.disabled_reason := null;
  end if;
  return new;
end $$;
revoke all on function app_private.enforce_webhook_endpoint_rules() from public;
create trigger webhook_endpoints_rules before insert or update on public.webhook_endpoints
  for each row execute function app_private.enforce_webhook_endpoint_rules();

-- AES-256-GCM ciphertexts (the key is the service's WEBHOOK_SECRETS_KEY, never in the database):
-- the service must re-read a secret to sign, so it cannot be a hash. No member grant at all.
create table app_private.webhook_secrets (
  endpoint_id uuid primary key references public.webhook_endpoints (id) on delete cascade,
  current_secret text not null,
  previous_secret text,
  previous_expires_at timestamptz
);
alter table app_private.webhook_secrets enable row level security;
revoke all on app_private.webhook_secrets from anon, authenticated;

-- Member-callable (security definer, checks the caller owns the endpoint): create and
-- rotate-secret store the new ciphertext inside the member's own transaction.
create function app_private.set_webhook_secret(p_endpoint uuid, p_secret text, p_previous_until timestamptz)
returns boolean
language plpgsql security definer set search_path = '' as $$
begin
  if not exists (select 1 from public.webhook_endpoints where id = p_endpoint and owner_id = (select auth.uid())) then
    return false;
  end if;
  insert into app_private.webhook_secrets as s (endpoint_id, current_secret)
  values (p_endpoint, p_secret)
  on conflict (endpoint_id) do update
    set previous_secret = case when p_previous_until is null then null else s.current_secret end,
        previous_expires_at = p_previous_until,
        current_secret = excluded.current_secret;
  return true;
end $$;
revoke all on function app_private.set_webhook_secret(uuid, text, timestamptz) from public;
grant execute on function app_private.set_webhook_secret(uuid, text, timestamptz) to authenticated;

-- The outbox. data is the row as committed (to_jsonb); the service shapes it into the API record.
create table app_private.webhook_events (
  id uuid primary key default gen_random_uuid(),
  type text not null,
  record_id uuid,
  data jsonb not null,
  created_at timestamptz not null default clock_timestamp()
);
create index webhook_events_created_idx on app_private.webhook_events (created_at);
alter table app_private.webhook_events enable row level security;
revoke all on app_private.webhook_events from anon, authenticated;

create table public.webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  endpoint_id uuid not null references public.webhook_endpoints (id) on delete cascade,
  owner_id uuid not null references public.profiles (id) on delete cascade,
  event_id uuid not null references app_private.webhook_events (id) on delete cascade,
  event_type text not null,
  status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
  attempts integer not null default 0,
  last_status_code integer,
  last_error text,
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  delivered_at timestamptz,
  duration_ms integer,
  created_at timestamptz not null default clock_timestamp(),
  check (status <> 'pending' or next_attempt_at is not null)
);
create index webhook_deliveries_due_idx on public.webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_endpoint_created_idx on public.webhook_deliveries (endpoint_id, created_at desc, id desc);
create index webhook_deliveries_event_idx on public.webhook_deliveries (event_id);
create index webhook_deliveries_created_idx on public.webhook_deliveries (created_at);

alter table public.webhook_deliveries enable row level security;
revoke all on public.webhook_deliveries from anon, authenticated;
grant select on public.webhook_deliveries to authenticated;
create policy "members read their own deliveries" on public.webhook_deliveries
  for select to authenticated using (owner_id = (select auth.uid()));

-- The trigger function the generated triggers call (next migration): arguments are the event kind,
-- optionally 'snapshot=<view>' (streaks: data is the view's row, with the counts derived at read
-- time, as GET answers it), and the row's columns naming its audience. An event is written only
-- when some enabled endpoint of the audience wants it, with one pending delivery per such endpoint.
create function app_private.emit_webhook_event() returns trigger
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
  if not exists (
    select 1 from public.webhook_endpoints e
     where e.owner_id = any (v_audience) and e.enabled and (v_type = any (e.events) or '*' = any (e.events))
  ) then
    return null;
  end if;
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

-- Member-callable: a test event to one of the caller's endpoints (also when disabled).
create function app_private.ping_webhook_endpoint(p_endpoint uuid) returns uuid
language plpgsql security definer set search_path = '' as $$
declare
  v_owner uuid;
  v_event uuid;
  v_delivery uuid;
begin
  select owner_id into v_owner from public.webhook_endpoints where id = p_endpoint and owner_id = (select auth.uid());
  if v_owner is null then
    return null;
  end if;
  insert into app_private.webhook_events (type, record_id, data)
  values ('webhook_endpoint.ping', p_endpoint, jsonb_build_object('endpoint_id', p_endpoint)) returning id into v_event;
  insert into public.webhook_deliveries (endpoint_id, owner_id, event_id, event_type, next_attempt_at)
  values (p_endpoint, v_owner, v_event, 'webhook_endpoint.ping', clock_timestamp()) returning id into v_delivery;
  return v_delivery;
end $$;
revoke all on function app_private.ping_webhook_endpoint(uuid) from public;
grant execute on function app_private.ping_webhook_endpoint(uuid) to authenticated;

-- Member-callable: send one of the caller's deliveries again now, with a fresh schedule.
create function app_private.retry_webhook_delivery(p_endpoint uuid, p_delivery uuid) returns boolean
language plpgsql security definer set search_path = '' as $$
begin
  update public.webhook_deliveries
     set status = 'pending', attempts = 0, next_attempt_at = clock_timestamp(), last_error = null
   where id = p_delivery and endpoint_id = p_endpoint and owner_id = (select auth.uid());
  return found;
end $$;
revoke all on function app_private.retry_webhook_delivery(uuid, uuid) from public;
grant execute on function app_private.retry_webhook_delivery(uuid, uuid) to authenticated;
