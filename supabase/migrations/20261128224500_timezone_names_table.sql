-- A profile's or a streak's time zone was checked against pg_timezone_names, a view that reads the whole
-- time zone database from disk at every call: about 40 ms of database CPU for each streak created (POST
-- /streaks; 1.2 ms now, bench/streak-ab.ts), each sign-up and each time zone changed.
-- The names are now read once, here, into a table with an index. A name missing from it (one a later
-- time zone database brings, say) is still looked up in pg_timezone_names, so the same names are accepted
-- as before: only an unknown name pays the slow look-up, on its way to the refusal. A name the table holds
-- is also converted to once (cheap: the server keeps a zone it has loaded), so one that a later time zone
-- database dropped is refused ("time zone … not recognized", the same 22023) rather than stored, where
-- every date computed in it would fail.
create table app_private.timezone_names (name text primary key);
insert into app_private.timezone_names select distinct name from pg_catalog.pg_timezone_names;
revoke all on app_private.timezone_names from public, anon, authenticated;

-- Security definer: the trigger runs as the member writing, who has no grant on the table.
create or replace function app_private.check_timezone() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if exists (select 1 from app_private.timezone_names where name = new.timezone) then
    perform now() at time zone new.timezone;
  elsif not exists (select 1 from pg_catalog.pg_timezone_names where name = new.timezone) then
    raise exception 'unknown timezone "%"', new.timezone using errcode = '22023';
  end if;
  return new;
end $$;
