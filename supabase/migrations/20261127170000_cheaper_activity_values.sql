-- What recording the actor costs each credential write (issue 33 allows 10% on the create and update rows
-- of npm run bench; bench/results/2026-11-27-activity-cost.md), besides the ledger's triggers (generated
-- per table since the next *_activity_triggers.sql):

-- The ledger's actor kind and surface are checked by domains instead of table CHECK constraints. A table's
-- CHECK constraint is read back from its stored form and planned again by every statement that inserts into
-- the table: each trigger's insert paid for the two of them, about 20 µs a row on PGlite. A domain's check
-- is planned once per session (the type cache); the values allowed are the same. Members still read the
-- columns as text (a domain is sent as its base type).
create domain app_private.activity_actor_kind as text check (value in ('token', 'oauth'));
create domain app_private.activity_surface as text check (value in ('rest', 'invoke', 'mcp', 'page'));
alter table public.activity
  drop constraint activity_actor_kind_check,
  drop constraint activity_surface_check,
  alter column actor_kind type app_private.activity_actor_kind,
  alter column surface type app_private.activity_surface;

-- Every event reads the actor three times, as column defaults (20261126120000_create_activity.sql). With
-- its SET clause the function could not be inlined: each default was a function call of its own (about
-- 11 µs each on PGlite). Without it the planner inlines the expression into the insert. Not a security
-- definer: it runs with its caller's rights and reads only the caller's own setting; every name is
-- qualified, so no search_path can change what it calls.
create or replace function app_private.current_actor() returns jsonb
language sql stable as $$
  select nullif(pg_catalog.current_setting('request.jwt.claims', true), '')::pg_catalog.jsonb operator(pg_catalog.->) 'actor'
$$;
