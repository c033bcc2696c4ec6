-- Who a member has blocked. A block applies both ways to follows and messages.
create table public.blocks (
  blocker_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  blocked_id uuid not null references public.profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (blocker_id, blocked_id),
  check (blocker_id <> blocked_id)
);
create index blocks_blocked_idx on public.blocks (blocked_id);

alter table public.blocks enable row level security;
revoke all on public.blocks from anon, authenticated;
grant select, delete on public.blocks to authenticated;
grant insert (blocked_id) on public.blocks to authenticated;

create policy "members read the blocks they made" on public.blocks
  for select to authenticated using (blocker_id = (select auth.uid()));
create policy "members block others themselves" on public.blocks
  for insert to authenticated with check (blocker_id = (select auth.uid()));
create policy "members lift their own blocks" on public.blocks
  for delete to authenticated using (blocker_id = (select auth.uid()));

-- Members cannot see who blocked them, so policies ask this definer function instead.
create function app_private.blocked_between(a uuid, b uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from public.blocks
    where (blocker_id = a and blocked_id = b) or (blocker_id = b and blocked_id = a)
  )
$$;
revoke all on function app_private.blocked_between(uuid, uuid) from public;
grant usage on schema app_private to authenticated;
grant execute on function app_private.blocked_between(uuid, uuid) to authenticated;
