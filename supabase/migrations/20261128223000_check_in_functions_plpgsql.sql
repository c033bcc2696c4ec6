-- A check-in's two SQL functions become PL/pgSQL, with the same bodies, settings and grants (create or
-- replace keeps the grants). A SQL function with a SET clause is never inlined, and Postgres parses
-- and plans its body again at every call: for public.check_in_streak at every statement that calls it,
-- for app_private.recount_streak at every check-in that adds a day. PL/pgSQL keeps a session's plans.
-- Measured by bench/streak-ab.ts (docs/benchmark.md), the database's CPU a check-in on Postgres, two runs: a
-- day the streak already has 0.48 → 0.38 and 0.41 ms, a new day 2.25 → 1.59 and 2.34 → 1.87 ms.

create or replace function public.check_in_streak(p_streak_id uuid, p_day date default null, p_note text default null)
returns jsonb
language plpgsql security definer set search_path = '' as $$
begin
  return app_private.check_in_streak_at((select auth.uid()), p_streak_id, p_day, p_note, now());
end $$;

create or replace function app_private.recount_streak(p_streak_id uuid) returns void
language plpgsql security definer set search_path = '' as $$
begin
  with days as (
    select c.day, c.day - (row_number() over (order by c.day))::integer as run
    from public.streak_check_ins c where c.streak_id = p_streak_id
  ), runs as (
    select count(*)::integer as length, max(days.day) as last_day from days group by days.run
  )
  update public.streaks s set
    current_count = coalesce((select r.length from runs r order by r.last_day desc limit 1), 0),
    longest_count = coalesce((select max(r.length) from runs r), 0),
    last_check_in_on = (select max(r.last_day) from runs r)
  where s.id = p_streak_id;
end $$;
