-- Who follows whom. Visible to both sides; refused when either side has blocked the other.
create table public.follows (
  id uuid primary key default gen_random_uuid(),
  follower_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  followee_id uuid not null references public.profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  constraint follows_no_self_follow check (follower_id <> followee_id),
  constraint follows_once unique (follower_id, followee_id)
);
create index follows_follower_created_idx on public.follows (follower_id, created_at desc, id desc);
create index follows_followee_created_idx on public.follows (followee_id, created_at desc, id desc);

alter table public.follows enable row level security;
revoke all on public.follows from anon, authenticated;
grant select, delete on public.follows to authenticated;
grant insert (followee_id) on public.follows to authenticated;

create policy "members read follows they are part of" on public.follows
  for select to authenticated
  using (follower_id = (select auth.uid()) or followee_id = (select auth.uid()));
create policy "members follow others themselves" on public.follows
  for insert to authenticated with check (follower_id = (select auth.uid()));
create policy "members unfollow themselves" on public.follows
  for delete to authenticated using (follower_id = (select auth.uid()));

create function app_private.refuse_blocked_follow() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if app_private.blocked_between(new.follower_id, new.followee_id) then
    raise exception 'cannot follow: one of these members has blocked the other' using errcode = '42501';
  end if;
  return new;
end $$;
create trigger follows_refuse_blocked before insert on public.follows
  for each row execute function app_private.refuse_blocked_follow();
