-- Which of the six collection types a member has switched on. Every member has all six rows.
create table public.collection_types (
  owner_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  type text not null check (type in ('music', 'film', 'books', 'articles', 'places', 'products')),
  enabled boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (owner_id, type)
);
create trigger collection_types_touch before update on public.collection_types
  for each row execute function app_private.touch_updated_at();

alter table public.collection_types enable row level security;
revoke all on public.collection_types from anon, authenticated;
grant select on public.collection_types to authenticated;
grant update (enabled) on public.collection_types to authenticated;

create policy "members read their own collection types" on public.collection_types
  for select to authenticated using (owner_id = (select auth.uid()));
create policy "members switch their own collection types" on public.collection_types
  for update to authenticated using (owner_id = (select auth.uid())) with check (owner_id = (select auth.uid()));

-- New profiles start with every type switched on.
create function app_private.seed_collection_types() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.collection_types (owner_id, type)
  select new.id, t from unnest(array['music', 'film', 'books', 'articles', 'places', 'products']) as t;
  return new;
end $$;
create trigger profiles_seed_collection_types after insert on public.profiles
  for each row execute function app_private.seed_collection_types();
