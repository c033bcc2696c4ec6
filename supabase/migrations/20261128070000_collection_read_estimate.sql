-- The same trouble as 20261128063000, in the read policy: the planner cannot see auth.uid() (an
-- InitPlan) and estimated "owner_id = uid or visibility in (public, unlisted)" from the share of
-- one owner among many. Where one member owns most of the collections and few are shared, it
-- expected 5 of their 4,000 and sorted them all again. The CASE says the same thing (an unknown
-- owner, as for anon, falls to the visibility test, as the OR did) and is estimated as an ordinary test.
alter policy "members read their own and shared collections" on public.collections
  using (case when owner_id = (select auth.uid()) then true else visibility in ('public', 'unlisted') end);
