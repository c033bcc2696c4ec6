-- A partial entry's domain was guessed from its link (a YouTube link filed as an article, a non-English
-- Wikipedia page as an article); the complete draft that upgrades it knows better, so it now sets the
-- domain too. The rest of upsert_catalog_entry is as 20261126140100 wrote it.

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
