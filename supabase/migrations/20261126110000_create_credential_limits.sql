-- Limits on a credential beyond its scopes (lib/auth/credential-limits.ts): the member picks them
-- when making a personal access token. null: no limits (every token made before this migration).
-- Written once at creation, never changed afterwards, so the token cache cannot hold stale limits.
alter table app_private.access_tokens add column limits jsonb;

-- The collections a collection-limited credential may reach, from the claims the member
-- transaction sets (lib/db asMember adds `limits` only when the credential has it); null when the
-- credential is not limited, an empty array (reaches nothing) for an empty list. One expression
-- with no FROM, sub-select or SET clause, so the planner inlines it: measured on Postgres, the
-- policy's initplan costs 2 µs a statement inlined, 80 µs as a planned SQL function (re-planned
-- each statement), 16 µs in PL/pgSQL. Only pg_catalog functions and operators, which are found
-- first whatever the search_path. The JSON array's text becomes an array literal: ["a", "b"] → {a, b}.
create function app_private.credential_collections() returns uuid[]
language sql stable as $$
  select translate(nullif(current_setting('request.jwt.claims', true), '')::jsonb -> 'limits' ->> 'collections', '[]"', '{}')::uuid[]
$$;
-- Members' policies call it; it reads only the caller's own claims.
grant execute on function app_private.credential_collections() to authenticated;

-- Restrictive policies AND with the permissive ones of each table: outside its collections a
-- limited credential reads nothing (a get is 404, a list leaves them out, the export skips them)
-- and writes nothing. A collection it creates would have an id outside its list, so creating a
-- collection is refused too (the pipeline answers that first with 403 collection_limited).
create policy "a collection-limited credential reaches only its collections" on public.collections
  as restrictive for all to authenticated
  using ((select app_private.credential_collections()) is null or id = any ((select app_private.credential_collections())::uuid[]))
  with check ((select app_private.credential_collections()) is null or id = any ((select app_private.credential_collections())::uuid[]));
create policy "a collection-limited credential reaches only the items of its collections" on public.items
  as restrictive for all to authenticated
  using (
    (select app_private.credential_collections()) is null
    or collection_id = any ((select app_private.credential_collections())::uuid[])
  )
  with check (
    (select app_private.credential_collections()) is null
    or collection_id = any ((select app_private.credential_collections())::uuid[])
  );

-- A delete asked for through a tool by a "confirm destructive" credential waits here until the
-- member confirms it on the settings page (signed in), which then deletes through the pipeline as
-- the member. The row image is what the credential could read when it asked, shown to the member.
-- Service-only, like the tokens: the page reads it for the signed-in member.
create table app_private.delete_confirmations (
  id uuid primary key default gen_random_uuid(),
  member_id uuid not null references auth.users (id) on delete cascade,
  token_id uuid references app_private.access_tokens (id) on delete cascade,
  credential text not null,
  tool text not null,
  resource text not null,
  target_id uuid not null,
  target jsonb not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null default now() + interval '7 days'
);
create index delete_confirmations_member_idx on app_private.delete_confirmations (member_id, created_at desc);
