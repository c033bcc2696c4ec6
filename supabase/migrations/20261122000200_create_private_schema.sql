-- app_private holds what no member may touch directly: credentials, tokens, bookkeeping.
-- Nothing here is granted to anon or authenticated.
create schema if not exists app_private;
revoke all on schema app_private from public;
-- Postgres lets PUBLIC execute every new function. For the functions these migrations create
-- (any schema), nobody may, unless a migration grants it by name; a test lists those grants.
-- (A per-schema default cannot revoke what the global default grants, hence the global form.)
alter default privileges revoke execute on functions from public;

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
