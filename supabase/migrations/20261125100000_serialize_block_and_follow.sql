-- A follow inserted while a block between the same two members was being committed survived the
-- block (issue 30): the follow's check ran before the block committed, and the block's delete ran
-- before the follow committed, so neither saw the other. Both paths now take one transaction-scoped
-- lock on the unordered pair of members first, so they run one after the other for that pair; under
-- READ COMMITTED each statement after the wait takes a new snapshot and sees what the other committed.

-- The two-key form of the advisory lock (class, pair) never meets the one-key locks the migrator
-- takes. Not callable by members: only the definer triggers below need it.
create function app_private.lock_member_pair(a uuid, b uuid) returns void
language sql volatile security definer set search_path = '' as $$
  select pg_catalog.pg_advisory_xact_lock(
    pg_catalog.hashtext('member pair: block and follow'),
    pg_catalog.hashtext(least(a, b)::text || greatest(a, b)::text))
$$;
revoke all on function app_private.lock_member_pair(uuid, uuid) from public;

-- Waits for a block of the pair being committed, then checks with a snapshot taken after the wait.
create or replace function app_private.refuse_blocked_follow() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform app_private.lock_member_pair(new.follower_id, new.followee_id);
  if exists (
    select 1 from public.blocks b
    where (b.blocker_id = new.follower_id and b.blocked_id = new.followee_id)
       or (b.blocker_id = new.followee_id and b.blocked_id = new.follower_id)
  ) then
    raise exception 'cannot follow: one of these members has blocked the other' using errcode = '42501';
  end if;
  return new;
end $$;

-- Waits for a follow of the pair being committed, then deletes with a snapshot that includes it.
create or replace function app_private.end_follows_on_block() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform app_private.lock_member_pair(new.blocker_id, new.blocked_id);
  delete from public.follows f
  where (f.follower_id = new.blocker_id and f.followee_id = new.blocked_id)
     or (f.follower_id = new.blocked_id and f.followee_id = new.blocker_id);
  return null;
end $$;
