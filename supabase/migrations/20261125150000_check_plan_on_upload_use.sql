-- Uploads are a Pro feature where a key is used, not only where its URL is minted: a member downgraded
-- after minting may still finish the PUT (the URL is honoured for its lifetime), but attaching the key to
-- a profile, message or item needs the plan at that moment. A key already attached stays (resending the
-- same value is not a new use), and clearing it needs no plan.
create or replace function app_private.check_upload_key(p_key text, p_purpose text, p_owner uuid)
returns void
language plpgsql stable security definer set search_path = '' as $$
declare
  found app_private.uploads;
  owner_plan text;
begin
  select * into found from app_private.uploads where key = p_key;
  if found.key is null or found.owner_id is distinct from p_owner then
    raise exception 'upload key "%" does not name an upload of this member', p_key using errcode = '42501';
  end if;
  if found.purpose <> p_purpose then
    raise exception 'upload key "%" was minted for %, not %', p_key, found.purpose, p_purpose
      using errcode = '42501';
  end if;
  if found.status <> 'complete' then
    raise exception 'upload key "%" has not been uploaded yet', p_key using errcode = '42501';
  end if;
  select plan into owner_plan from public.profiles where id = p_owner;
  if owner_plan is distinct from 'pro' then
    raise exception 'using an upload needs the Pro plan (this member is on %)', coalesce(owner_plan, 'no plan')
      using errcode = 'PDS01';
  end if;
end $$;

create or replace function app_private.check_upload_key_column() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  row_values jsonb := to_jsonb(new);
begin
  if tg_op = 'UPDATE' and (to_jsonb(old) ->> tg_argv[0]) is not distinct from (row_values ->> tg_argv[0]) then
    return new;
  end if;
  perform app_private.check_upload_key(row_values ->> tg_argv[0], tg_argv[1], (row_values ->> tg_argv[2])::uuid);
  return new;
end $$;
