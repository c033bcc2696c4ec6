-- The catalog entry grows the facts the resolver and search need: creators, artwork, platform
-- links, canonical URL, release date, attributes, and a search document. The document is computed
-- by a trigger (unaccent is not immutable enough for a generated column on every server), so the
-- stored text and the query text go through the same normalisation: unaccent, lower, punctuation
-- to spaces.
alter table public.catalog_entries
  add column creators jsonb not null default '[]'::jsonb check (jsonb_typeof(creators) = 'array'),
  add column artwork jsonb check (artwork is null or jsonb_typeof(artwork) = 'object'),
  add column platform_links jsonb not null default '{}'::jsonb check (jsonb_typeof(platform_links) = 'object'),
  add column canonical_url text check (char_length(canonical_url) <= 2048),
  add column release_date text check (release_date ~ '^\d{4}(-\d{2}(-\d{2})?)?$'),
  add column attributes jsonb not null default '{}'::jsonb check (jsonb_typeof(attributes) = 'object'),
  add column partial boolean not null default false,
  add column source text not null default 'resolver' check (source in ('seed', 'resolver', 'provider')),
  add column popularity real not null default 0,
  add column search_title text not null default '',
  add column search_text text not null default '',
  add column search_vector tsvector;

alter table public.catalog_entries
  add constraint catalog_entries_kind_format check (kind ~ '^[a-z_]{2,32}$'),
  add constraint catalog_entries_subtitle_length check (char_length(subtitle) <= 500);

-- Immutable in practice: the dictionary is named explicitly, so the answer never depends on the
-- caller's search_path.
create function app_private.catalog_normalize(value text) returns text
language sql immutable parallel safe set search_path = '' as $$
  select btrim(regexp_replace(
    lower(extensions.unaccent('extensions.unaccent'::regdictionary, coalesce(value, ''))),
    '[^[:alnum:]]+', ' ', 'g'))
$$;
grant execute on function app_private.catalog_normalize(text) to authenticated;

create function app_private.catalog_search_document() returns trigger
language plpgsql set search_path = '' as $$
declare
  names text;
begin
  select coalesce(string_agg(c ->> 'name', ' '), '') into names
    from jsonb_array_elements(new.creators) as c;
  new.search_title := app_private.catalog_normalize(new.title);
  new.search_text := app_private.catalog_normalize(
    concat_ws(' ', new.title, new.subtitle, names, left(new.release_date, 4)));
  new.search_vector :=
    setweight(to_tsvector('simple'::regconfig, new.search_title), 'A') ||
    setweight(to_tsvector('simple'::regconfig, app_private.catalog_normalize(concat_ws(' ', new.subtitle, names))), 'B');
  return new;
end $$;

create trigger catalog_entries_search_document before insert or update on public.catalog_entries
  for each row execute function app_private.catalog_search_document();

-- Existing rows (if any) get their document computed once.
update public.catalog_entries set title = title;

create index catalog_entries_search_trgm_idx on public.catalog_entries
  using gin (search_text extensions.gin_trgm_ops);
create index catalog_entries_search_fts_idx on public.catalog_entries using gin (search_vector);
create index catalog_entries_search_title_idx on public.catalog_entries (search_title);
create index catalog_entries_domain_idx on public.catalog_entries (domain);
