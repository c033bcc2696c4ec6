-- Instances cache token look-ups for a few seconds (lib/auth/token-cache.ts). Revoking, expiring
-- early or deleting a token (a member's deletion cascades here) must reach every instance at once,
-- so the table itself announces it: a trigger, not the code path, so no way of revoking is missed.
-- NOTIFY is sent at commit, to every session listening on the channel (PGlite: its own listeners).
create function app_private.announce_token_revocation() returns trigger
language plpgsql set search_path = '' as $$
begin
  perform pg_notify('pds_token_revoked', encode(old.token_hash, 'hex'));
  return null;
end;
$$;
revoke all on function app_private.announce_token_revocation() from public;

create trigger access_tokens_announce_revocation
  after update of revoked_at, expires_at, scopes, member_id, token_hash or delete on app_private.access_tokens
  for each row execute function app_private.announce_token_revocation();

-- The notification reaches other instances a moment after the revoke commits, so on its own a
-- request arriving in that moment could still be served from a cache. The member transaction's
-- first statement therefore re-checks the token it acts for (lib/db asMember), in the same round
-- trip: a token revoked before the transaction starts never reaches the data. Run as the service,
-- before the role switch in that statement; members cannot call it.
create function app_private.assert_token_live(token_id uuid) returns void
language plpgsql stable set search_path = '' as $$
begin
  if not exists (
    select 1 from app_private.access_tokens
    where id = token_id and revoked_at is null and expires_at > now()
  ) then
    raise exception 'The token is expired or revoked.' using errcode = 'PDS41';
  end if;
end;
$$;
revoke all on function app_private.assert_token_live(uuid) from public;
