-- The resolver's answers from upstream providers, shared by every instance and kept across
-- restarts: a link or phrase resolved once is not asked upstream again until expires_at.
-- key: provider id + request URL (the in-process cache's key). failed: a definite "no" (404, a
-- refused request), kept only briefly; value is then null (not found) or the refusal to repeat.
create table app_private.resolver_cache (
  key text primary key check (length(key) between 1 and 4096),
  value jsonb,
  failed boolean not null default false,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index resolver_cache_expires_idx on app_private.resolver_cache (expires_at);

-- Written and read by the resolver as the service only: no grant and so no policy for members.
alter table app_private.resolver_cache enable row level security;
revoke all on app_private.resolver_cache from anon, authenticated;
