-- Named groups of favorites. private: owner only; unlisted: anyone holding the id; public: listed.
create table public.collections (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  name text not null check (char_length(name) between 1 and 200),
  description text not null default '' check (char_length(description) <= 2000),
  visibility text not null default 'private' check (visibility in ('public', 'unlisted', 'private')),
  type text not null check (type in ('music', 'film', 'books', 'articles', 'places', 'products')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index collections_owner_created_idx on public.collections (owner_id, created_at desc, id desc);
create trigger collections_touch before update on public.collections
  for each row execute function app_private.touch_updated_at();

alter table public.collections enable row level security;
revoke all on public.collections from anon, authenticated;
grant select, delete on public.collections to authenticated;
grant insert (name, description, visibility, type) on public.collections to authenticated;
grant update (name, description, visibility, type) on public.collections to authenticated;

create policy "members read their own and shared collections" on public.collections
  for select to authenticated
  using (owner_id = (select auth.uid()) or visibility in ('public', 'unlisted'));
create policy "members create their own collections" on public.collections
  for insert to authenticated with check (owner_id = (select auth.uid()));
create policy "members change their own collections" on public.collections
  for update to authenticated using (owner_id = (select auth.uid())) with check (owner_id = (select auth.uid()));
create policy "members delete their own collections" on public.collections
  for delete to authenticated using (owner_id = (select auth.uid()));

-- A switched-off type takes no new collections; the refusal names the type.
create function app_private.require_enabled_collection_type() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_op = 'UPDATE' and new.type = old.type then
    return new;
  end if;
  if exists (
    select 1 from public.collection_types
    where owner_id = new.owner_id and type = new.type and not enabled
  ) then
    raise exception 'collection type "%" is switched off for this member', new.type
      using errcode = '42501', hint = 'Switch it on with PATCH /collection-types.';
  end if;
  return new;
end $$;
create trigger collections_require_enabled_type before insert or update of type on public.collections
  for each row execute function app_private.require_enabled_collection_type();
