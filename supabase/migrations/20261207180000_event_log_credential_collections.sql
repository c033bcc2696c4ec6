-- A collection-limited credential (20261126110000_create_credential_limits.sql) reads only its
-- collections and their items, but GET /events read the member's whole log: every collection.* and
-- item.* event, payload and all, of collections outside its list (found by an outside trial). The
-- log is read under RLS, so the same restrictive rule as on the tables narrows it: a collection's
-- events by the record's id, an item's by the collection the payload names (an item moved out of
-- the list leaves with its update, one moved in arrives with it). Every other kind is outside the
-- limit, as its tables are. A CASE, as on the tables (20261128063000): an unlimited credential's
-- test is a constant the planner folds.
create policy "a collection-limited credential reads the events of its collections only"
  on app_private.webhook_events as restrictive for select to authenticated
  using (
    case
      when (select app_private.credential_collections()) is null then true
      when type like 'collection.%' then record_id = any ((select app_private.credential_collections())::uuid[])
      when type like 'item.%' then (data ->> 'collection_id')::uuid = any ((select app_private.credential_collections())::uuid[])
      else true
    end
  );
