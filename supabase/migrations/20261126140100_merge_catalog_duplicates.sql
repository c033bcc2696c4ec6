-- One entry per work (issue 35, item 5). catalog_external_ids (primary key (namespace, value)) is
-- the identity of a work: an id never points at two entries. Two entries can still turn out to be
-- one work: a Spotify link and an Apple Music link resolved apart (offline, or before a provider
-- named both) make two partial entries, until Odesli answers with both ids. The write function
-- then merges them, in its own transaction:
--   * the survivor is the complete entry over a partial one, then the oldest (created_at, id), so a
--     seeded entry always survives, and an entry members already hold keeps its id where it can;
--   * the survivor keeps what it knows and gains what only the others knew (fill gaps, never overwrite);
--   * every item that pointed at a merged entry points at the survivor (items have no uniqueness
--     rule per work, so nothing else changes; the item.updated webhook tells the owner);
--   * the merged entry's ids move to the survivor, and public.catalog_merges records
--     merged id → survivor, so GET /catalog/{old id} answers the survivor.

create table public.catalog_merges (
  merged_id uuid primary key,
  survivor_id uuid not null references public.catalog_entries (id) on delete cascade,
  merged_at timestamptz not null default now()
);
create index catalog_merges_survivor_idx on public.catalog_merges (survivor_id);

alter table public.catalog_merges enable row level security;
revoke all on public.catalog_merges from anon, authenticated;
grant select on public.catalog_merges to authenticated;
create policy "members read where merged catalog entries went" on public.catalog_merges
  for select to authenticated using (true);

-- Folds `merged` into `survivor`; both rows are locked by the caller. The service's only.
create or replace function app_private.merge_catalog_entry(survivor uuid, merged uuid) returns void
language plpgsql security definer set search_path = '' as $$
declare
  m public.catalog_entries;
begin
  select * into m from public.catalog_entries where id = merged;
  if not found or survivor = merged then return; end if;
  update public.items set song_id = survivor where song_id = merged;
  update public.catalog_external_ids set entry_id = survivor where entry_id = merged;
  update public.catalog_entries s set
    title = coalesce(s.title, m.title),
    subtitle = coalesce(s.subtitle, m.subtitle),
    creators = case when jsonb_array_length(s.creators) = 0 then m.creators else s.creators end,
    artwork = coalesce(s.artwork, m.artwork),
    platform_links = m.platform_links || s.platform_links,
    canonical_url = coalesce(s.canonical_url, m.canonical_url),
    release_date = coalesce(s.release_date, m.release_date),
    attributes = m.attributes || s.attributes,
    partial = s.partial and m.partial,
    popularity = greatest(s.popularity, m.popularity)
  where s.id = survivor;
  update public.catalog_merges set survivor_id = survivor where survivor_id = merged;
  -- A completion the merged entry awaited goes on for the survivor, unless that is complete now.
  insert into app_private.catalog_completions (entry_id, input, attempts, next_attempt_at)
    select survivor, c.input, 0, now() from app_private.catalog_completions c, public.catalog_entries s
     where c.entry_id = merged and s.id = survivor and s.partial
    on conflict (entry_id) do nothing;
  delete from app_private.catalog_completions where entry_id = survivor
     and not (select partial from public.catalog_entries where id = survivor);
  insert into public.catalog_merges (merged_id, survivor_id) values (merged, survivor)
    on conflict (merged_id) do update set survivor_id = excluded.survivor_id, merged_at = now();
  delete from public.catalog_entries where id = merged;
end $$;
revoke execute on function app_private.merge_catalog_entry(uuid, uuid) from public, anon, authenticated;

-- The write function as before (locks the draft's ids, fills gaps, upgrades a partial entry, never
-- overwrites a complete one), with two changes: every entry the draft's ids belong to is merged
-- into the survivor first; and an entry merged away by a concurrent writer while this one waited
-- for its lock is looked up again instead of written to.
create or replace function app_private.upsert_catalog_entry(draft jsonb) returns uuid
language plpgsql security definer set search_path = '' as $$
declare
  ids jsonb := coalesce(draft -> 'external_ids', '[]'::jsonb);
  found_id uuid;
  other uuid;
  existing public.catalog_entries;
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
    update public.catalog_entries set
      title = coalesce(title, nullif(draft ->> 'title', '')),
      subtitle = coalesce(subtitle, nullif(draft ->> 'subtitle', '')),
      creators = case when jsonb_array_length(creators) = 0 then coalesce(draft -> 'creators', '[]'::jsonb)
                      else creators end,
      artwork = coalesce(artwork, nullif(draft -> 'artwork', 'null'::jsonb)),
      platform_links = coalesce(draft -> 'platform_links', '{}'::jsonb) || platform_links,
      canonical_url = coalesce(canonical_url, nullif(draft ->> 'canonical_url', '')),
      release_date = coalesce(release_date, nullif(draft ->> 'release_date', '')),
      attributes = coalesce(draft -> 'attributes', '{}'::jsonb) || attributes
    where id = found_id;
  end if;

  insert into public.catalog_external_ids (namespace, value, entry_id)
    select distinct e ->> 'namespace', e ->> 'value', found_id from jsonb_array_elements(ids) e
    on conflict (namespace, value) do nothing;
  return found_id;
end $$;
revoke execute on function app_private.upsert_catalog_entry(jsonb) from public, anon, authenticated;
