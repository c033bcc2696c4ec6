-- A block applies both ways: follows between the two members end when it is made (and new ones
-- are refused by the follows trigger while it lasts). Lifting the block restores nothing.
create function app_private.end_follows_on_block() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  delete from public.follows f
  where (f.follower_id = new.blocker_id and f.followee_id = new.blocked_id)
     or (f.follower_id = new.blocked_id and f.followee_id = new.blocker_id);
  return null;
end $$;
create trigger blocks_end_follows after insert on public.blocks
  for each row execute function app_private.end_follows_on_block();
