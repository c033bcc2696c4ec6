-- The search words followed each catalog entry through a row trigger: one delete and one insert
-- statement per entry, three quarters of a bulk insert's time (50,000 entries: 19 s, against 4.5 s
-- without it and 0.3 s for their words in one statement). Per statement, from the transition
-- tables, a load of any size costs two statements. Postgres allows transition tables on a trigger of
-- one event only, hence two triggers over one function. Rows are read back from the table by id, so
-- the words are computed from the stored row, after the before-trigger's search document, as before.
drop trigger catalog_entries_search_words on public.catalog_entries;
drop function app_private.catalog_search_words_refresh();

create function app_private.catalog_search_words_refresh() returns trigger
language plpgsql set search_path = '' as $$
begin
  delete from public.catalog_search_words w using changed_entries n where w.entry_id = n.id;
  insert into public.catalog_search_words (entry_id, word, domain, similarity, score)
    select w.*
      from public.catalog_entries c, lateral app_private.catalog_search_words_of(c) as w
     where c.id in (select n.id from changed_entries n);
  return null;
end;
$$;
revoke all on function app_private.catalog_search_words_refresh() from public;

create trigger catalog_entries_search_words_insert after insert on public.catalog_entries
  referencing new table as changed_entries
  for each statement execute function app_private.catalog_search_words_refresh();
create trigger catalog_entries_search_words_update after update on public.catalog_entries
  referencing new table as changed_entries
  for each statement execute function app_private.catalog_search_words_refresh();
