-- Todo rules the store keeps whatever path the write takes: the RRULE subset (same wording as the
-- API's validation in registry/recurrence.ts), a recurring todo needs due_at, completing a
-- recurring todo moves it to its next occurrence, and reminders are minutes before due_at.

-- What is wrong with a rule, or null when it is inside the subset.
create function app_private.recurrence_problem(p_rule text) returns text
language plpgsql immutable set search_path = '' as $$
declare
  v_part text;
  v_key text;
  v_value text;
  v_seen text[] := '{}';
  v_freq text;
  v_byday boolean := false;
begin
  if p_rule is null then
    return null;
  end if;
  if p_rule = '' then
    return 'recurrence must not be empty (send null for none)';
  end if;
  foreach v_part in array string_to_array(p_rule, ';') loop
    if v_part !~ '^[A-Z]+=[^=;]+$' then
      return format('recurrence part "%s" is not KEY=VALUE', v_part);
    end if;
    v_key := split_part(v_part, '=', 1);
    v_value := split_part(v_part, '=', 2);
    if v_key = any(v_seen) then
      return format('recurrence repeats %s', v_key);
    end if;
    v_seen := v_seen || v_key;
    if v_key = 'FREQ' then
      if v_value not in ('DAILY', 'WEEKLY', 'MONTHLY') then
        return format('FREQ=%s is not supported: use DAILY, WEEKLY or MONTHLY', v_value);
      end if;
      v_freq := v_value;
    elsif v_key = 'INTERVAL' then
      if v_value !~ '^[1-9][0-9]{0,2}$' then
        return 'INTERVAL must be a whole number from 1 to 999';
      end if;
    elsif v_key = 'BYDAY' then
      if v_value !~ '^(MO|TU|WE|TH|FR|SA|SU)(,(MO|TU|WE|TH|FR|SA|SU))*$' then
        return 'BYDAY must list days as MO,TU,WE,TH,FR,SA,SU (no ordinals)';
      end if;
      v_byday := true;
    else
      return format('%s is not supported: only FREQ, INTERVAL and BYDAY', v_key);
    end if;
  end loop;
  if v_freq is null then
    return 'recurrence needs FREQ';
  end if;
  if v_byday and v_freq <> 'WEEKLY' then
    return 'BYDAY is supported only with FREQ=WEEKLY';
  end if;
  return null;
end $$;

-- The first occurrence of a (valid) rule after p_after, stepping from p_due in the member's local
-- time, so 09:00 stays 09:00 across DST. WEEKLY with BYDAY: the next listed day later in the same
-- ISO week, else the first listed day INTERVAL weeks on. MONTHLY: the same day of the month;
-- months without that day are skipped, as RFC 5545 does.
create function app_private.next_occurrence(p_due timestamptz, p_rule text, p_timezone text, p_after timestamptz)
returns timestamptz
language plpgsql stable set search_path = '' as $$
declare
  v_freq text := substring(p_rule from '(?:^|;)FREQ=([A-Z]+)');
  v_step integer := coalesce(substring(p_rule from '(?:^|;)INTERVAL=([0-9]+)')::integer, 1);
  v_days integer[];
  v_start timestamp := p_due at time zone p_timezone;
  v_local timestamp := p_due at time zone p_timezone;
  v_dow integer;
  v_later integer;
  v_months integer := 0;
  v_guard integer := 0;
begin
  select array_agg(distinct array_position(array['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'], d)) into v_days
  from unnest(string_to_array(substring(p_rule from '(?:^|;)BYDAY=([A-Z,]+)'), ',')) as d;
  loop
    v_guard := v_guard + 1;
    if v_guard > 100000 then
      raise exception 'no next occurrence of "%" found', p_rule using errcode = '22023';
    end if;
    if v_freq = 'DAILY' then
      v_local := v_local + make_interval(days => v_step);
    elsif v_freq = 'WEEKLY' and v_days is null then
      v_local := v_local + make_interval(days => 7 * v_step);
    elsif v_freq = 'WEEKLY' then
      v_dow := extract(isodow from v_local)::integer;
      select min(d) into v_later from unnest(v_days) as d where d > v_dow;
      if v_later is not null then
        v_local := v_local + make_interval(days => v_later - v_dow);
      else
        v_local := v_local + make_interval(days => 7 * v_step - (v_dow - 1) + (v_days[1] - 1));
      end if;
    else
      v_months := v_months + v_step;
      continue when extract(day from v_start + make_interval(months => v_months)) <> extract(day from v_start);
      v_local := v_start + make_interval(months => v_months);
    end if;
    exit when (v_local at time zone p_timezone) > p_after;
  end loop;
  return v_local at time zone p_timezone;
end $$;

create function app_private.apply_todo_rules() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_problem text := app_private.recurrence_problem(new.recurrence);
  v_timezone text;
begin
  if v_problem is not null then
    raise exception 'invalid recurrence "%": %', new.recurrence, v_problem using errcode = '22023';
  end if;
  if new.recurrence is not null and new.due_at is null then
    raise exception 'a recurring todo needs due_at' using errcode = '22023';
  end if;
  if new.status = 'done' and (tg_op = 'INSERT' or old.status is distinct from 'done') then
    new.completed_at := now();
    -- A recurring todo is never done: completing it records the completion and moves it on.
    if new.recurrence is not null then
      select p.timezone into v_timezone from public.profiles p where p.id = new.owner_id;
      new.due_at := app_private.next_occurrence(new.due_at, new.recurrence, coalesce(v_timezone, 'UTC'), now());
      new.status := 'open';
    end if;
  end if;
  return new;
end $$;
create trigger todos_apply_rules before insert or update on public.todos
  for each row execute function app_private.apply_todo_rules();

alter table public.todos add constraint todos_reminders_are_minutes_before_due
  check (array_position(reminders, null) is null and 0 <= all (reminders) and 525600 >= all (reminders));
