-- Idempotency-Key records: one per member and key, kept 24 hours. A row is reserved ('in_flight')
-- in its own committed step before the write runs, so a concurrent retry on any instance finds it;
-- the write's own transaction then stores the response ('done'), so both commit or neither does.
create table app_private.idempotency_keys (
  member_id uuid not null references app_private.members (id) on delete cascade,
  key text not null check (char_length(key) between 1 and 255),
  -- SHA-256 of the capability and its validated input: the same key with another payload is refused.
  fingerprint text not null,
  state text not null check (state in ('in_flight', 'done')),
  -- The reserving request's nonce; a reservation whose lease ran out (its process died) can be
  -- taken over, and the old holder can then no longer complete it.
  lease uuid not null,
  lease_expires_at timestamptz not null,
  status integer check (status between 100 and 599),
  -- json, not jsonb: a replay answers the first response's body as it was, key order included.
  body json,
  headers json,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  primary key (member_id, key),
  check (state = 'in_flight' or status is not null)
);
create index idempotency_keys_expires_idx on app_private.idempotency_keys (expires_at);

alter table app_private.idempotency_keys enable row level security;
revoke all on app_private.idempotency_keys from anon, authenticated;
-- No policies: only the service reaches the table directly; members complete their own
-- reservation through the function below, inside the member transaction of the write.

-- Stores the response of the reservation the caller holds; false when the lease is no longer
-- theirs, and the caller then rolls its write back.
create function app_private.complete_idempotent_request(
  p_key text, p_lease uuid, p_status integer, p_body json, p_headers json
) returns boolean
language plpgsql security definer set search_path = '' as $$
begin
  update app_private.idempotency_keys
     set state = 'done', status = p_status, body = p_body, headers = p_headers
   where member_id = (select auth.uid()) and key = p_key and lease = p_lease and state = 'in_flight';
  return found;
end $$;
revoke all on function app_private.complete_idempotent_request(text, uuid, integer, json, json) from public;
grant usage on schema app_private to authenticated;
grant execute on function app_private.complete_idempotent_request(text, uuid, integer, json, json) to authenticated;
