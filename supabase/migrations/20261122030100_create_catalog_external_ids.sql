-- Identity of a catalog entry across platforms: one row per (namespace, value), e.g.
-- ('spotify:track', '0Jcij1eWd5bDMU5iPbxe2i') or ('isbn13', '9780140328721'). The primary key is
-- the dedupe mechanism: the same external id can never point at two entries.
create table public.catalog_external_ids (
  namespace text not null check (namespace ~ '^[a-z0-9_]+(:[a-z0-9_]+)?$'),
  value text not null check (char_length(value) between 1 and 2048),
  entry_id uuid not null references public.catalog_entries (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (namespace, value)
);
create index catalog_external_ids_entry_idx on public.catalog_external_ids (entry_id);

alter table public.catalog_external_ids enable row level security;
revoke all on public.catalog_external_ids from anon, authenticated;
grant select on public.catalog_external_ids to authenticated;
create policy "members read the catalog's external ids" on public.catalog_external_ids
  for select to authenticated using (true);
