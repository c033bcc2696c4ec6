-- The check-in window comes from the registry (app_private.limit_check_in_max_days_back()) instead
-- of a literal 7 here and another in zod. The body is otherwise the one it replaces.
create or replace function app_private.check_in_streak_at(
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
  if v_day < v_today - app_private.limit_check_in_max_days_back() then
    raise exception 'cannot check in for %: at most % days back from today (%) in the streak''s time zone %',
      v_day, app_private.limit_check_in_max_days_back(), v_today, v_streak.timezone using errcode = '22023';
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
