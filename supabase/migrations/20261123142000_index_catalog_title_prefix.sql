-- Search answers a page from its full-text hits when it can prove no typo-tolerant candidate
-- would rank among them; the proof needs every title that starts with the query (they get a
-- bonus), found by range on a byte-ordered index: a range of the "C" collation holds exactly the
-- strings that start with a prefix, and it works with a bound parameter, unlike LIKE 'x%'.
create index catalog_entries_search_title_prefix_idx on public.catalog_entries ((search_title collate "C"));
