-- Reaching the target achieves an active goal, on whatever write brings it there. Falling below
-- the target later does not reopen it: an achievement is not taken back silently (the member may
-- set status to active again; it sticks while current_value is below target_value).
create function app_private.achieve_reached_goal() returns trigger
language plpgsql set search_path = '' as $$
begin
  if new.status = 'active' and new.current_value >= new.target_value then
    new.status := 'achieved';
  end if;
  return new;
end $$;
create trigger goals_achieve_reached before insert or update on public.goals
  for each row execute function app_private.achieve_reached_goal();
