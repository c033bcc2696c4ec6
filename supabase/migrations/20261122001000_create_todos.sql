-- Tasks, one-off or recurring, with reminders as minutes before due_at.
create table public.todos (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  title text not null check (char_length(title) between 1 and 500),
  notes text not null default '' check (char_length(notes) <= 5000),
  due_at timestamptz,
  status text not null default 'open' check (status in ('open', 'done')),
  recurrence text,
  reminders integer[] not null default '{}' check (cardinality(reminders) <= 5),
  completed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index todos_owner_created_idx on public.todos (owner_id, created_at desc, id desc);
create trigger todos_touch before update on public.todos
  for each row execute function app_private.touch_updated_at();

alter table public.todos enable row level security;
revoke all on public.todos from anon, authenticated;
grant select, delete on public.todos to authenticated;
grant insert (title, notes, due_at, status, recurrence, reminders) on public.todos to authenticated;
grant update (title, notes, due_at, status, recurrence, reminders) on public.todos to authenticated;

create policy "members read their own todos" on public.todos
  for select to authenticated using (owner_id = (select auth.uid()));
create policy "members create their own todos" on public.todos
  for insert to authenticated with check (owner_id = (select auth.uid()));
create policy "members change their own todos" on public.todos
  for update to authenticated using (owner_id = (select auth.uid())) with check (owner_id = (select auth.uid()));
create policy "members delete their own todos" on public.todos
  for delete to authenticated using (owner_id = (select auth.uid()));
