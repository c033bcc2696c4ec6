-- One favorite: a catalog entry placed in a collection, with the owner's own overrides.
-- Items follow their collection's visibility.
create table public.items (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  collection_id uuid not null references public.collections (id) on delete cascade,
  song_id uuid not null references public.catalog_entries (id),
  title text check (char_length(title) between 1 and 500),
  note text not null default '' check (char_length(note) <= 5000),
  rating smallint check (rating between 1 and 5),
  position integer not null default 0 check (position >= 0),
  tags text[] not null default '{}' check (cardinality(tags) <= 20),
  artwork_key text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index items_owner_created_idx on public.items (owner_id, created_at desc, id desc);
create index items_collection_created_idx on public.items (collection_id, created_at desc, id desc);
create index items_song_idx on public.items (song_id);
create trigger items_touch before update on public.items
  for each row execute function app_private.touch_updated_at();

alter table public.items enable row level security;
revoke all on public.items from anon, authenticated;
grant select, delete on public.items to authenticated;
grant insert (collection_id, song_id, title, note, rating, position, tags, artwork_key) on public.items to authenticated;
grant update (collection_id, song_id, title, note, rating, position, tags, artwork_key) on public.items to authenticated;

-- The collection sub-select runs under the collections policy, so an item is visible exactly when
-- its collection is.
create policy "members read items of collections they can read" on public.items
  for select to authenticated
  using (owner_id = (select auth.uid()) or exists (select 1 from public.collections c where c.id = collection_id));
create policy "members add items to their own collections" on public.items
  for insert to authenticated
  with check (
    owner_id = (select auth.uid())
    and exists (select 1 from public.collections c where c.id = collection_id and c.owner_id = (select auth.uid()))
  );
create policy "members change their own items" on public.items
  for update to authenticated
  using (owner_id = (select auth.uid()))
  with check (
    owner_id = (select auth.uid())
    and exists (select 1 from public.collections c where c.id = collection_id and c.owner_id = (select auth.uid()))
  );
create policy "members delete their own items" on public.items
  for delete to authenticated using (owner_id = (select auth.uid()));
