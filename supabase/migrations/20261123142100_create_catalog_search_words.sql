-- A common word is in thousands of catalog entries, and ranking them all on each search cost tens
-- of milliseconds of database time. Its score for one entry depends only on the word and the
-- entry, so it is kept here, ordered by an index: a one-word search reads the top of the word's
-- range instead of ranking every hit. The score is the search's own formula
-- (lib/domain/search-query.ts) for a query equal to the word; test/resolver/search-plan.test.ts
-- compares the pages both ways. Rows follow their entry through a trigger, so no writer can miss it.
create table public.catalog_search_words (
  entry_id uuid not null references public.catalog_entries (id) on delete cascade,
  word text not null,
  domain text not null,
  similarity real not null,
  score numeric not null,
  primary key (entry_id, word)
);
create index catalog_search_words_rank_idx on public.catalog_search_words (word, score desc, entry_id);

alter table public.catalog_search_words enable row level security;
revoke all on public.catalog_search_words from anon, authenticated;
grant select on public.catalog_search_words to authenticated;
create policy "members read the catalog's search words" on public.catalog_search_words
  for select to authenticated using (true);

-- One row per full-text word of the entry whose one-word query is that word itself (the query
-- side tests the same, so the words here are exactly an entry's full-text hits).
create function app_private.catalog_search_words_of(c public.catalog_entries)
returns table (entry_id uuid, word text, domain text, similarity real, score numeric)
language sql stable set search_path = '' as $$
  select c.id, w.word, c.domain,
         greatest(extensions.similarity(c.search_title, w.word), extensions.word_similarity(w.word, c.search_text)),
         round((
           greatest(extensions.similarity(c.search_text, w.word), extensions.word_similarity(w.word, c.search_text))
           + 0.3 * ts_rank_cd(c.search_vector, w.tsq)
           + case when c.search_title = w.word then 1.0 when c.search_title like w.word || '%' then 0.3 else 0 end
           + 0.01 * least(c.popularity, 10)
         )::numeric, 6)
    from (select l.lexeme as word, plainto_tsquery('simple'::regconfig, l.lexeme) as tsq
            from unnest(c.search_vector) as l) as w
   where w.tsq::text = quote_literal(w.word)
$$;
revoke all on function app_private.catalog_search_words_of(public.catalog_entries) from public;

create function app_private.catalog_search_words_refresh() returns trigger
language plpgsql set search_path = '' as $$
begin
  delete from public.catalog_search_words where entry_id = new.id;
  insert into public.catalog_search_words (entry_id, word, domain, similarity, score)
    select * from app_private.catalog_search_words_of(new);
  return null;
end;
$$;
revoke all on function app_private.catalog_search_words_refresh() from public;

-- After the row is written, so the search document the before-trigger computed is in it.
create trigger catalog_entries_search_words after insert or update on public.catalog_entries
  for each row execute function app_private.catalog_search_words_refresh();

insert into public.catalog_search_words (entry_id, word, domain, similarity, score)
  select w.* from public.catalog_entries c, lateral app_private.catalog_search_words_of(c) as w;
