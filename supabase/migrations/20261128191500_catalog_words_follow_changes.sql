-- A work the catalog already holds cost its entry a rewrite each time the resolver met it again (a member
-- saving a song someone saved before, a provider answering a phrase with works already stored):
-- upsert_catalog_entry updated the entry to fill what it lacked, usually nothing, and the update made the
-- search document and every search word again (20261128081000_catalog_search_words_per_statement.sql).
--
-- - The upsert now leaves an entry alone when the draft adds nothing to it (a new external id only moves its
--   updated_at).
-- - An update makes words only for the entries whose words can differ: those where a column that
--   catalog_search_words_of reads changed (the search document, which the before-trigger derives from the
--   title, subtitle, creators and release date; the domain; the popularity in the score).
-- - An insert makes its entries' words without first deleting words that a new entry cannot have.
--
-- Measured in bench/catalog-words.ts (bench/results/2026-11-28-catalog-words.md). A later migration that
-- changes catalog_search_words_of must rebuild the words itself: an update that leaves those columns as they
-- were no longer does.
create or replace function app_private.catalog_search_words_insert() returns trigger
language plpgsql set search_path = '' as $$
begin
  insert into public.catalog_search_words (entry_id, word, domain, similarity, score)
    select w.*
      from public.catalog_entries c, lateral app_private.catalog_search_words_of(c) as w
     where c.id in (select n.id from changed_entries n);
  return null;
end;
$$;
revoke all on function app_private.catalog_search_words_insert() from public;

create or replace function app_private.catalog_search_words_update() returns trigger
language plpgsql set search_path = '' as $$
declare
  v_ids uuid[];
begin
  select array_agg(n.id) into v_ids
    from changed_entries n left join previous_entries o on o.id = n.id
   where o.id is null
      or (n.domain, n.search_title, n.search_text, n.search_vector, n.popularity)
         is distinct from (o.domain, o.search_title, o.search_text, o.search_vector, o.popularity);
  if v_ids is null then
    return null;
  end if;
  delete from public.catalog_search_words w where w.entry_id = any (v_ids);
  insert into public.catalog_search_words (entry_id, word, domain, similarity, score)
    select w.*
      from public.catalog_entries c, lateral app_private.catalog_search_words_of(c) as w
     where c.id = any (v_ids);
  return null;
end;
$$;
revoke all on function app_private.catalog_search_words_update() from public;

drop trigger catalog_entries_search_words_insert on public.catalog_entries;
drop trigger catalog_entries_search_words_update on public.catalog_entries;
drop function app_private.catalog_search_words_refresh();

create trigger catalog_entries_search_words_insert after insert on public.catalog_entries
  referencing new table as changed_entries
  for each statement execute function app_private.catalog_search_words_insert();
create trigger catalog_entries_search_words_update after update on public.catalog_entries
  referencing old table as previous_entries new table as changed_entries
  for each statement execute function app_private.catalog_search_words_update();

-- The resolver's upsert, as 20261126170000_catalog_upgrade_takes_draft_domain.sql wrote it but for a work the
-- catalog already holds: it no longer updates the entry when the draft adds nothing to it, and only moves
-- updated_at when the draft adds no more than an external id.
create or replace function app_private.upsert_catalog_entry(draft jsonb) returns uuid
language plpgsql security definer set search_path = '' as $$
declare
  ids jsonb := coalesce(draft -> 'external_ids', '[]'::jsonb);
  found_id uuid;
  other uuid;
  existing public.catalog_entries;
  filled public.catalog_entries;
  rewritten boolean := true;
  added integer;
  k text;
begin
  if jsonb_typeof(draft) is distinct from 'object' then
    raise exception 'catalog draft must be an object' using errcode = '22023';
  end if;
  if jsonb_typeof(ids) <> 'array' or jsonb_array_length(ids) = 0 or jsonb_array_length(ids) > 50 then
    raise exception 'catalog draft needs 1 to 50 external ids' using errcode = '22023';
  end if;
  if exists (
    select 1 from jsonb_array_elements(ids) e
    where jsonb_typeof(e) <> 'object' or coalesce(e ->> 'namespace', '') = '' or coalesce(e ->> 'value', '') = ''
  ) then
    raise exception 'every external id needs a namespace and a value' using errcode = '22023';
  end if;

  for k in
    select distinct (e ->> 'namespace') || ':' || (e ->> 'value') as key from jsonb_array_elements(ids) e order by key
  loop
    perform pg_advisory_xact_lock(hashtextextended(k, 7261122));
  end loop;

  loop
    select x.entry_id into found_id
      from public.catalog_external_ids x
      join public.catalog_entries c on c.id = x.entry_id
      join jsonb_array_elements(ids) e on x.namespace = e ->> 'namespace' and x.value = e ->> 'value'
      order by c.partial, c.created_at, c.id
      limit 1;
    exit when found_id is null;
    select * into existing from public.catalog_entries where id = found_id for update;
    exit when found;
  end loop;

  if found_id is not null then
    for other in
      select distinct x.entry_id from public.catalog_external_ids x
        join jsonb_array_elements(ids) e on x.namespace = e ->> 'namespace' and x.value = e ->> 'value'
       where x.entry_id <> found_id order by 1
    loop
      perform 1 from public.catalog_entries where id = other for update;
      if found then perform app_private.merge_catalog_entry(found_id, other); end if;
    end loop;
    select * into existing from public.catalog_entries where id = found_id;
  end if;

  if found_id is null then
    insert into public.catalog_entries (
      domain, kind, title, subtitle, creators, artwork, platform_links, canonical_url, release_date,
      attributes, partial, source, popularity)
    values (
      draft ->> 'domain', coalesce(draft ->> 'kind', 'item'), draft ->> 'title', nullif(draft ->> 'subtitle', ''),
      coalesce(draft -> 'creators', '[]'::jsonb), nullif(draft -> 'artwork', 'null'::jsonb),
      coalesce(draft -> 'platform_links', '{}'::jsonb), nullif(draft ->> 'canonical_url', ''),
      nullif(draft ->> 'release_date', ''), coalesce(draft -> 'attributes', '{}'::jsonb),
      coalesce((draft ->> 'partial')::boolean, false), coalesce(draft ->> 'source', 'resolver'),
      coalesce((draft ->> 'popularity')::real, 0))
    returning id into found_id;
  elsif existing.partial and not coalesce((draft ->> 'partial')::boolean, false) then
    -- A complete draft replaces what was guessed from a URL slug.
    update public.catalog_entries set
      domain = coalesce(draft ->> 'domain', domain),
      kind = coalesce(draft ->> 'kind', kind),
      title = coalesce(draft ->> 'title', title),
      subtitle = coalesce(nullif(draft ->> 'subtitle', ''), subtitle),
      creators = case when jsonb_array_length(coalesce(draft -> 'creators', '[]'::jsonb)) > 0
                      then draft -> 'creators' else creators end,
      artwork = coalesce(nullif(draft -> 'artwork', 'null'::jsonb), artwork),
      platform_links = platform_links || coalesce(draft -> 'platform_links', '{}'::jsonb),
      canonical_url = coalesce(nullif(draft ->> 'canonical_url', ''), canonical_url),
      release_date = coalesce(nullif(draft ->> 'release_date', ''), release_date),
      attributes = attributes || coalesce(draft -> 'attributes', '{}'::jsonb),
      partial = false
    where id = found_id;
  else
    -- Fills only what the entry lacks, which for a work saved before is usually nothing: then the entry is
    -- left as it is (no new row version, search document or words, and updated_at keeps its meaning).
    -- existing is the entry as locked above, after any merge, so it is what the update would read.
    filled := existing;
    filled.title := coalesce(existing.title, nullif(draft ->> 'title', ''));
    filled.subtitle := coalesce(existing.subtitle, nullif(draft ->> 'subtitle', ''));
    filled.creators := case when jsonb_array_length(existing.creators) = 0
                            then coalesce(draft -> 'creators', '[]'::jsonb) else existing.creators end;
    filled.artwork := coalesce(existing.artwork, nullif(draft -> 'artwork', 'null'::jsonb));
    filled.platform_links := coalesce(draft -> 'platform_links', '{}'::jsonb) || existing.platform_links;
    filled.canonical_url := coalesce(existing.canonical_url, nullif(draft ->> 'canonical_url', ''));
    filled.release_date := coalesce(existing.release_date, nullif(draft ->> 'release_date', ''));
    filled.attributes := coalesce(draft -> 'attributes', '{}'::jsonb) || existing.attributes;
    rewritten := (filled.title, filled.subtitle, filled.creators, filled.artwork, filled.platform_links,
        filled.canonical_url, filled.release_date, filled.attributes)
      is distinct from (existing.title, existing.subtitle, existing.creators, existing.artwork, existing.platform_links,
        existing.canonical_url, existing.release_date, existing.attributes);
    if rewritten then
      update public.catalog_entries set
        title = filled.title, subtitle = filled.subtitle, creators = filled.creators, artwork = filled.artwork,
        platform_links = filled.platform_links, canonical_url = filled.canonical_url,
        release_date = filled.release_date, attributes = filled.attributes
      where id = found_id;
    end if;
  end if;

  insert into public.catalog_external_ids (namespace, value, entry_id)
    select distinct e ->> 'namespace', e ->> 'value', found_id from jsonb_array_elements(ids) e
    on conflict (namespace, value) do nothing;
  -- A new external id changes the entry as it is read (its external_ids), so updated_at moves with it.
  get diagnostics added = row_count;
  if added > 0 and not rewritten then
    update public.catalog_entries set updated_at = now() where id = found_id;
  end if;
  return found_id;
end $$;
revoke execute on function app_private.upsert_catalog_entry(jsonb) from public, anon, authenticated;
