-- The catalog's two GIN indexes (trigrams and full text) stop keeping a pending list.
--
-- With fastupdate, Postgres's default, a GIN index puts new entries in a pending list, and every scan of
-- the index reads that whole list until VACUUM (or autovacuum's analyze), or an insert that finds it over
-- gin_pending_list_limit (4 MB, a few thousand entries), moves it into the index. Every search that ranks fuzzy candidates
-- scans these indexes three times (the trigram index for `%` and `<%`, the full-text index), so each
-- search read the list three times. PGlite, the embedded default, runs no autovacuum, so there the list
-- only grew until it overflowed; on the server it is anywhere from empty to 4 MB between autovacuums.
-- With 2,520 entries pending a search on a 2,000-entry catalog took 12-20 ms; with none, 5-9 ms
-- (bench/results/2026-11-29-gin-pending.md).
--
-- Without the list each insert writes its trigrams into the index itself. Entries arrive one at a time
-- as members save links, and are searched far more often than written; the same note measures the
-- insert's cost. This is what the Postgres manual advises where steady response time matters more than
-- update speed (GIN "fastupdate").
--
-- Changing the setting locks each index against every statement on the catalog (searches plan with all
-- its indexes open) until the migrations commit. So the pending entries are moved first, which stops
-- neither searches nor saves, and the change waits at most 5 s for searches already running (the
-- statements that come meanwhile wait behind it): past that the migration fails and can simply run again,
-- rather than holding every search and save behind it.
-- A last move takes whatever was saved in between.
select pg_catalog.gin_clean_pending_list('public.catalog_entries_search_trgm_idx'::regclass);
select pg_catalog.gin_clean_pending_list('public.catalog_entries_search_fts_idx'::regclass);
set local lock_timeout = '5s';
alter index public.catalog_entries_search_trgm_idx set (fastupdate = off);
alter index public.catalog_entries_search_fts_idx set (fastupdate = off);
set local lock_timeout to default;
select pg_catalog.gin_clean_pending_list('public.catalog_entries_search_trgm_idx'::regclass);
select pg_catalog.gin_clean_pending_list('public.catalog_entries_search_fts_idx'::regclass);
