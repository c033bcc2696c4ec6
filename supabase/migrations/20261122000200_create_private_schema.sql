-- app_private holds what no member may touch directly: credentials, tokens, bookkeeping.
-- Nothing here is granted to anon or authenticated.
create schema if not exists app_private;
revoke all on schema app_private from public;
-- Functions are executable by PUBLIC unless said otherwise; here nothing is, unless granted.
alter default privileges in schema app_private revoke execute on functions from public;

-- Keeps updated_at honest on every table that has one: it moves only when the row changed.
create function app_private.touch_updated_at() returns trigger
language plpgsql set search_path = '' as $$
begin
  if new is not distinct from old then
    return new;
  end if;
  new.updated_at := now();
  return new;
end $$;
