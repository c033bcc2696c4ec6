-- Five SQL functions with a SET clause on members' paths, which Postgres parses and plans again at every
-- statement that calls them (a function with a SET clause is never inlined, and up to Postgres 17 a SQL
-- function keeps its plan for one statement only), as 20261128223000 found for a check-in's:
-- - app_private.streak_current_count, in the streaks view: also run through the SQL-function executor once
--   a row (about 3 µs a row against 0.3 inlined, 100,000 rows in psql). Its body is one expression, reads no
--   table and needs no definer, so it drops the SET clause and is inlined into the view; its operators
--   and the cast are qualified with pg_catalog, as app_private.current_actor's are, so the caller's
--   search_path cannot reach it (an OPERATOR() is parsed at one precedence, left to right: hence the
--   parentheses).
-- - app_private.blocked_between (every message sent), app_private.caller_timezone (a streak created without
--   a time zone) and app_private.unchanged_since (each update an undo puts back) read rows members may not;
--   app_private.lock_member_pair (every follow and block) is called only by definer triggers and stays out
--   of members' reach. The four keep their definer and SET clause and become PL/pgSQL, with the same
--   bodies: PL/pgSQL keeps a session's plans. One call a statement (pgbench -M prepared, one client):
--   blocked_between 0.115 → 0.053 ms, caller_timezone 0.134 → 0.052.
-- create or replace keeps each function's grants. Measured as the API runs them by
-- bench/member-functions-ab.ts (docs/benchmark.md).

create or replace function app_private.streak_current_count(p_stored integer, p_last_on date, p_timezone text, p_at timestamptz)
returns integer
language sql stable as $$
  select case
    when p_last_on is not null
     and p_last_on operator(pg_catalog.>=) ((p_at at time zone p_timezone)::pg_catalog.date operator(pg_catalog.-) 1)
    then p_stored
    else 0
  end
$$;

create or replace function app_private.blocked_between(a uuid, b uuid) returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  return exists (
    select 1 from public.blocks
    where (blocker_id = a and blocked_id = b) or (blocker_id = b and blocked_id = a)
  );
end $$;

create or replace function app_private.lock_member_pair(a uuid, b uuid) returns void
language plpgsql volatile security definer set search_path = '' as $$
begin
  perform pg_catalog.pg_advisory_xact_lock(
    pg_catalog.hashtext('member pair: block and follow'),
    pg_catalog.hashtext(least(a, b)::text || greatest(a, b)::text));
end $$;

create or replace function app_private.caller_timezone() returns text
language plpgsql stable security definer set search_path = '' as $$
begin
  return coalesce((select p.timezone from public.profiles p where p.id = (select auth.uid())), 'UTC');
end $$;

create or replace function app_private.unchanged_since(p_entry uuid) returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  return coalesce((
    select s.last_sequence = e.record_sequence
      from app_private.webhook_events e
      join app_private.record_event_sequences s on s.record_id = e.record_id
     where e.id = p_entry and e.actor_member = (select auth.uid())), false);
end $$;
