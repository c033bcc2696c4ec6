-- The activity ledger's cost per credential write (issue 33 allows 10% on the create and update rows of
-- npm run bench; docs/decisions/0021-activity-and-undo.md). What a row costs is mostly the insert itself;
-- this trims what the trigger and the insert do around it, with the same rows recorded.

-- Activity ids come from random() and the clock instead of gen_random_uuid(): PGlite draws strong random
-- bytes through JavaScript for each of those (5-12 µs a call, against 2-3 µs for this). A UUIDv8 (RFC 9562):
-- 52 random bits, the version, the variant, 48 bits of Unix milliseconds and 14 more random bits, so two ids
-- would have to share the millisecond and 66 random bits to collide. The random bits come first, as with
-- gen_random_uuid(): time-first ids (UUIDv7) put every concurrent insert on the primary key's rightmost leaf
-- (with 16 clients on Postgres they did 10-19% fewer inserts a second in five of six paired pgbench runs on
-- the loaded machine of 2026-11-26; bench/results/2026-11-26-activity-cost.md). The ids are not secrets: a
-- member reads and undoes only their own activity (RLS), whatever id they name. No SET clause, so the
-- insert inlines it: it uses only pg_catalog functions and operators, found first whatever the search_path.
create function app_private.activity_id() returns uuid
language sql volatile as $$
  select encode(
    int8send((random() * 4611686018427387903)::bigint & -61441 | 32768)
      || int8send((date_part('epoch', clock_timestamp()) * 1000)::bigint << 14 | (random() * 16383)::int
        | (-9223372036854775808)::bigint),
    'hex')::uuid
$$;
alter table public.activity alter column id set default app_private.activity_id();

-- As 20261126120000_create_activity.sql, with what every credential write paid trimmed: the actor's kind
-- is read once; an update's previous values are collected only when a writable column changed (no empty
-- object built first). The id comes from the column default above.
create or replace function app_private.record_activity() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  -- The claims are read once: they hold both the member (sub) and the actor.
  v_claims jsonb := nullif(current_setting('request.jwt.claims', true), '')::jsonb;
  v_actor jsonb := v_claims -> 'actor';
  v_kind text := v_actor ->> 'kind';
  v_old jsonb;
  v_before jsonb;
  v_after jsonb;
  v_id uuid;
  v_xact bigint;
  v_cascaded boolean := false;
  i integer;
begin
  if v_kind is distinct from 'token' and v_kind is distinct from 'oauth' then
    return null;
  end if;
  if tg_op = 'UPDATE' then
    v_old := to_jsonb(old);
    v_after := to_jsonb(new);
    for i in 2 .. tg_nargs - 1 loop
      if v_old -> tg_argv[i] is distinct from v_after -> tg_argv[i] then
        v_before := coalesce(v_before, '{}') || jsonb_build_object(tg_argv[i], v_old -> tg_argv[i]);
      end if;
    end loop;
    if v_before is null then
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
    (v_claims ->> 'sub')::uuid, v_kind, v_actor ->> 'id', v_actor ->> 'surface', tg_argv[0],
    tg_table_schema || '.' || tg_table_name, v_id, v_cascaded, v_xact,
    nullif(current_setting('pds.undo_of', true), '')::uuid, v_before, v_after
  );
  return null;
end $$;
revoke all on function app_private.record_activity() from public;
