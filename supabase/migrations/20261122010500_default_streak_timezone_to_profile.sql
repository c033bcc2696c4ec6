-- A streak created without a timezone counts its days where its member lives (the profile's
-- timezone), not in UTC: "today" for a member in Auckland is not UTC's today.
create function app_private.caller_timezone() returns text
language sql stable security definer set search_path = '' as $$
  select coalesce((select p.timezone from public.profiles p where p.id = (select auth.uid())), 'UTC')
$$;
grant execute on function app_private.caller_timezone() to authenticated;
alter table public.streaks alter column timezone set default app_private.caller_timezone();
