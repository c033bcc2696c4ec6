-- The only way a streak changes: a check-in. Members reach it through public.check_in_streak, which
-- takes "now" from the transaction clock; the service (and the tests, with fixed clocks) may call
-- app_private.check_in_streak_at with an explicit instant, which no member can execute.

-- Recomputes the stored counts from the check-ins (gaps and islands: consecutive days share
-- day - row_number). current_count is the run that ends at the latest check-in.
create function app_private.recount_streak(p_streak_id uuid) returns void
language sql security definer set search_path = '' as $$
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
  where s.id = p_streak_id
$$;

-- What current_count means when it is read at `p_at`: the stored run counts only while its last
-- day is today or yesterday in the streak's time zone; after a missed day the streak is broken.
create function app_private.streak_current_count(p_stored integer, p_last_on date, p_timezone text, p_at timestamptz)
returns integer
language sql stable set search_path = '' as $$
  select case
    when p_last_on is not null and p_last_on >= (p_at at time zone p_timezone)::date - 1 then p_stored
    else 0
  end
$$;
grant execute on function app_private.streak_current_count(integer, date, text, timestamptz) to authenticated;

create function app_private.check_in_streak_at(
  p_member_id uuid, p_streak_id uuid, p_day date, p_note text, p_at timestamptz
) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v_streak public.streaks;
  v_today date;
  v_day date;
  v_check_in public.streak_check_ins;
  v_created boolean := true;
begin
  -- The row lock serialises check-ins on one streak, so concurrent ones recount in turn.
  select * into v_streak from public.streaks s
  where s.id = p_streak_id and s.owner_id = p_member_id for update;
  if not found then
    raise exception 'no streak with id % belongs to this member', p_streak_id using errcode = '42501';
  end if;
  v_today := (p_at at time zone v_streak.timezone)::date;
  v_day := coalesce(p_day, v_today);
  if v_day > v_today then
    raise exception 'cannot check in for %: it is after today (%) in the streak''s time zone %',
      v_day, v_today, v_streak.timezone using errcode = '22023';
  end if;
  if v_day < v_today - 7 then
    raise exception 'cannot check in for %: at most 7 days back from today (%) in the streak''s time zone %',
      v_day, v_today, v_streak.timezone using errcode = '22023';
  end if;
  insert into public.streak_check_ins (streak_id, owner_id, day, note)
  values (v_streak.id, v_streak.owner_id, v_day, coalesce(p_note, ''))
  on conflict (streak_id, day) do nothing
  returning * into v_check_in;
  if not found then
    v_created := false;
    select * into v_check_in from public.streak_check_ins c where c.streak_id = v_streak.id and c.day = v_day;
  else
    perform app_private.recount_streak(v_streak.id);
  end if;
  return jsonb_build_object('check_in', to_jsonb(v_check_in) - 'owner_id', 'created', v_created);
end $$;
revoke all on function app_private.check_in_streak_at(uuid, uuid, date, text, timestamptz) from public;
grant execute on function app_private.check_in_streak_at(uuid, uuid, date, text, timestamptz) to service_role;

-- The member-facing entry point: the caller is auth.uid() and the clock is the transaction's.
create function public.check_in_streak(p_streak_id uuid, p_day date default null, p_note text default null)
returns jsonb
language sql security definer set search_path = '' as $$
  select app_private.check_in_streak_at((select auth.uid()), p_streak_id, p_day, p_note, now())
$$;
revoke all on function public.check_in_streak(uuid, date, text) from public;
grant execute on function public.check_in_streak(uuid, date, text) to authenticated;

-- Streaks as the API reads them: current_count derived at read time. security_invoker keeps the
-- streaks policies in force for the reader; the view is simple, so writes pass through to the table.
create view public.streaks_with_counts with (security_invoker = true) as
select
  s.id, s.owner_id, s.name, s.cadence, s.timezone,
  app_private.streak_current_count(s.current_count, s.last_check_in_on, s.timezone, now()) as current_count,
  s.longest_count, s.last_check_in_on, s.created_at, s.updated_at
from public.streaks s;
revoke all on public.streaks_with_counts from anon, authenticated;
grant select, delete on public.streaks_with_counts to authenticated;
grant insert (name, cadence, timezone) on public.streaks_with_counts to authenticated;
grant update (name, cadence, timezone) on public.streaks_with_counts to authenticated;
