-- Who did it: every member transaction carries an actor in its claims (lib/db/index.ts asMember):
-- {"kind": "token"|"oauth"|"session"|"service", "id": <token, grant or session id>, "surface":
-- "rest"|"invoke"|"mcp"|"page"}. Events read it as column defaults, so the outbox writers need no change.
create function app_private.current_actor() returns jsonb
language sql stable set search_path = '' as $$
  select nullif(current_setting('request.jwt.claims', true), '')::jsonb -> 'actor'
$$;

alter table app_private.webhook_events
  add column actor_kind text default coalesce(app_private.current_actor() ->> 'kind', 'service'),
  add column actor_id text default app_private.current_actor() ->> 'id',
  add column actor_surface text default app_private.current_actor() ->> 'surface';

-- The activity of a member's credentials (personal access tokens, OAuth grants): each write they made
-- (by triggers, in the write's transaction) and each write they attempted that was refused (by the
-- request pipeline, as the service). Readable by the member alone; nothing lets a member write it.
-- before: what undo needs. For a delete the whole row; for an update only the writable columns it
-- changed, with after the whole row as it was left (undo refuses when the row differs from it).
-- Message bodies are never copied (messages are create-only, so nothing to undo), nor are webhook
-- endpoints (their secret cannot be restored); kept 30 days (lib/upkeep).
create table public.activity (
  id uuid primary key default gen_random_uuid(),
  -- No foreign key: its check would lock the member's profile row on every write (key share); the
  -- profile's deletion removes the member's activity instead (trigger below).
  owner_id uuid not null,
  actor_kind text not null check (actor_kind in ('token', 'oauth')),
  actor_id text not null,
  surface text not null check (surface in ('rest', 'invoke', 'mcp', 'page')),
  operation text not null,
  record_table text,
  record_id uuid,
  status smallint,
  error_code text,
  cascaded boolean not null default false,
  xact bigint,
  undo_of uuid,
  before jsonb,
  after jsonb,
  undone_at timestamptz,
  undone_by jsonb,
  created_at timestamptz not null default clock_timestamp()
);
create index activity_owner_created_idx on public.activity (owner_id, created_at desc, id desc);
-- xact is set on deletions only: what went with a deletion is found by its transaction.
create index activity_deleted_xact_idx on public.activity (xact) where xact is not null;
-- No index on created_at alone: the daily purge may scan; every write would pay for one.
alter table public.activity enable row level security;
revoke all on public.activity from anon, authenticated;
grant select on public.activity to authenticated;
create policy "members read their own activity" on public.activity
  for select to authenticated using (owner_id = (select auth.uid()));

create function app_private.delete_member_activity() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  delete from public.activity where owner_id = old.id;
  return null;
end $$;
revoke all on function app_private.delete_member_activity() from public;
create trigger profiles_delete_activity after delete on public.profiles
  for each row execute function app_private.delete_member_activity();

-- The generated triggers (next migration) call this after each row a credential writes. Arguments:
-- the event kind; 'image', 'none' (no image kept) or 'unkeyed' (a table without an id column: collection
-- types, recorded without record id or image); then the columns a member may write. A session, the service or
-- a write without claims records nothing. An update that changed no writable column (a recount after
-- a check-in) is not the credential's write. A deleted row holding the id of another row deleted in the
-- same transaction went with it (on delete cascade: a collection's items, a streak's check-ins): it is
-- marked cascaded, whichever of the two is recorded first, and comes back with its parent.
create function app_private.record_activity() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  -- The claims are read once: they hold both the member (sub) and the actor.
  v_claims jsonb := nullif(current_setting('request.jwt.claims', true), '')::jsonb;
  v_actor jsonb := v_claims -> 'actor';
  v_old jsonb;
  v_before jsonb;
  v_after jsonb;
  v_id uuid;
  v_xact bigint;
  v_cascaded boolean := false;
  i integer;
begin
  if v_actor is null or v_actor ->> 'kind' not in ('token', 'oauth') then
    return null;
  end if;
  if tg_op = 'UPDATE' then
    v_before := '{}';
    v_old := to_jsonb(old);
    v_after := to_jsonb(new);
    for i in 2 .. tg_nargs - 1 loop
      if v_old -> tg_argv[i] is distinct from v_after -> tg_argv[i] then
        v_before := v_before || jsonb_build_object(tg_argv[i], v_old -> tg_argv[i]);
      end if;
    end loop;
    if v_before = '{}' then
      return null;
    end if;
    if tg_argv[1] <> 'image' then
      v_before := null;
      v_after := null;
    end if;
    if tg_argv[1] <> 'unkeyed' then
      v_id := new.id;
    end if;
  elsif tg_op = 'DELETE' then
    v_old := to_jsonb(old);
    v_before := case when tg_argv[1] = 'image' then v_old end;
    if tg_argv[1] <> 'unkeyed' then
      v_id := old.id;
    end if;
    v_xact := txid_current();
    v_cascaded := exists (
      select 1 from public.activity p
       where p.xact = v_xact and p.record_id::text in (select e.value from jsonb_each_text(v_old) e where e.key <> 'id'));
    update public.activity c set cascaded = true
     where c.xact = v_xact and not c.cascaded
       and exists (select 1 from jsonb_each_text(c.before) e where e.key <> 'id' and e.value = v_id::text);
  elsif tg_argv[1] <> 'unkeyed' then
    v_id := new.id;
  end if;
  insert into public.activity
    (owner_id, actor_kind, actor_id, surface, operation, record_table, record_id, cascaded, xact, undo_of, before, after)
  values (
    (v_claims ->> 'sub')::uuid, v_actor ->> 'kind', v_actor ->> 'id', v_actor ->> 'surface', tg_argv[0],
    tg_table_schema || '.' || tg_table_name, v_id, v_cascaded, v_xact,
    nullif(current_setting('pds.undo_of', true), '')::uuid, v_before, v_after
  );
  return null;
end $$;
revoke all on function app_private.record_activity() from public;

-- Undo claims an activity row for the member (once: a second undo finds it taken) and marks who undid it.
create function app_private.claim_activity_undo(p_activity uuid) returns boolean
language plpgsql security definer set search_path = '' as $$
begin
  update public.activity set undone_at = clock_timestamp(), undone_by = app_private.current_actor()
   where id = p_activity and owner_id = (select auth.uid()) and undone_at is null;
  return found;
end $$;
revoke all on function app_private.claim_activity_undo(uuid) from public;
grant execute on function app_private.claim_activity_undo(uuid) to authenticated;

-- Restores a deleted row with its id, then the rows that went with it (same transaction, cascaded),
-- parents first. Only the member's own activity, recorded with its image; the table name was written
-- by the trigger, never by a member. Every trigger of the tables applies (blocks refuse a follow);
-- the caller then reads the rows back under the member's RLS (lib/domain/activity/undo.ts).
-- Answers the restored rows' ids.
create function app_private.restore_deleted(p_activity uuid) returns uuid[]
language plpgsql security definer set search_path = '' as $$
declare
  v_root public.activity;
  v_row public.activity;
  v_ids uuid[] := '{}';
begin
  select * into v_root from public.activity
   where id = p_activity and owner_id = (select auth.uid()) and before is not null and operation like '%.deleted';
  if not found then
    return null;
  end if;
  for v_row in
    select * from public.activity a
     where a.id = v_root.id
        or (a.xact = v_root.xact and a.owner_id = v_root.owner_id and a.cascaded and not v_root.cascaded
            and a.before is not null and a.undone_at is null)
     order by a.cascaded, a.created_at
  loop
    execute format('insert into %s select * from jsonb_populate_record(null::%s, $1)', v_row.record_table, v_row.record_table)
      using v_row.before;
    v_ids := v_ids || v_row.record_id;
    if v_row.id <> v_root.id then
      update public.activity set undone_at = clock_timestamp(), undone_by = app_private.current_actor() where id = v_row.id;
    end if;
  end loop;
  return v_ids;
end $$;
revoke all on function app_private.restore_deleted(uuid) from public;
grant execute on function app_private.restore_deleted(uuid) to authenticated;
