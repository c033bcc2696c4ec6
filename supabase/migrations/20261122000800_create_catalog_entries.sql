-- Catalog entries are facts shared by every member (a song, a film, a place), not member data:
-- every member reads them; only the service (the resolver) writes them.
create table public.catalog_entries (
  id uuid primary key default gen_random_uuid(),
  domain text not null check (domain in ('music', 'film', 'books', 'articles', 'places', 'products')),
  kind text not null default 'item',
  title text not null check (char_length(title) between 1 and 500),
  subtitle text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create trigger catalog_entries_touch before update on public.catalog_entries
  for each row execute function app_private.touch_updated_at();

alter table public.catalog_entries enable row level security;
revoke all on public.catalog_entries from anon, authenticated;
grant select on public.catalog_entries to authenticated;
create policy "members read the catalog" on public.catalog_entries
  for select to authenticated using (true);
