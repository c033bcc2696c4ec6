-- Account deletion removes the member's rows by cascade, uploads included, but the bytes live in
-- storage (local disk or S3), outside any transaction. Every upload row that goes is queued here in
-- the same transaction, so no object is forgotten even if the process dies before it purges; the
-- service then deletes the objects and the queue rows (lib/domain/uploads/purge.ts).
create table app_private.upload_purges (
  key text primary key,
  queued_at timestamptz not null default now(),
  attempts integer not null default 0,
  last_error text
);

-- Service only: no grant, no policy, so members can neither read nor write it.
alter table app_private.upload_purges enable row level security;
revoke all on app_private.upload_purges from anon, authenticated;

create function app_private.queue_upload_purge() returns trigger
language plpgsql set search_path = '' as $$
begin
  insert into app_private.upload_purges (key) values (old.key) on conflict (key) do nothing;
  return old;
end $$;
revoke execute on function app_private.queue_upload_purge() from public;

-- Pending rows too: with S3 the bytes may have arrived without the service having confirmed them.
create trigger uploads_queue_purge after delete on app_private.uploads
  for each row execute function app_private.queue_upload_purge();
