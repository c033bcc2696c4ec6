-- A credential's collection list is an InitPlan the planner cannot see, and it estimated
-- "(list) is null or id = any (list)" to keep half a percent of a table's rows. With the
-- visibility test beside it, a member owning 10,000 of 16,000 collections was expected to have 6:
-- sorting 6 looked cheaper than reading the index in order, so every list read and sorted all
-- 10,000 (6 ms against 0.1; docs/benchmark.md, growth). A CASE says the same thing (a list holding
-- nulls still refuses what it does not name) and is estimated as an ordinary test: the list then
-- reads the first page of the owner's index.
alter policy "a collection-limited credential reaches only its collections" on public.collections
  using (
    case when (select app_private.credential_collections()) is null then true
         else id = any ((select app_private.credential_collections())::uuid[]) end
  )
  with check (
    case when (select app_private.credential_collections()) is null then true
         else id = any ((select app_private.credential_collections())::uuid[]) end
  );

alter policy "a collection-limited credential reaches only the items of its c" on public.items
  using (
    case when (select app_private.credential_collections()) is null then true
         else collection_id = any ((select app_private.credential_collections())::uuid[]) end
  )
  with check (
    case when (select app_private.credential_collections()) is null then true
         else collection_id = any ((select app_private.credential_collections())::uuid[]) end
  );
