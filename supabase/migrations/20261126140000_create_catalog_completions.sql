-- Partial entries waiting for the background worker (issue 35, item 3). A resolve that ran out of
-- a provider's shared request budget or of its deadline answers what it knew (partial: true) and
-- queues the entry here; the worker (lib/catalog/completion-worker.ts, in the server process or
-- npm run worker) asks the providers again, with backoff, until the entry is complete, no provider
-- knows it, or the attempts run out. One row per entry: queueing twice keeps the first.
create table app_private.catalog_completions (
  entry_id uuid primary key references public.catalog_entries (id) on delete cascade,
  input text not null check (length(input) between 1 and 2048),
  attempts integer not null default 0 check (attempts >= 0),
  next_attempt_at timestamptz not null default now(),
  last_error text check (length(last_error) <= 2000),
  created_at timestamptz not null default now()
);
create index catalog_completions_due_idx on app_private.catalog_completions (next_attempt_at);

-- The service's alone: no grant and so no policy for members.
alter table app_private.catalog_completions enable row level security;
revoke all on app_private.catalog_completions from anon, authenticated;
