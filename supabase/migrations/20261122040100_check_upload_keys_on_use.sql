-- An upload key may be set on a profile, message or item only when it names a completed upload of
-- the row's owner with the matching purpose. Enforced here so every write path obeys it.
create function app_private.check_upload_key(p_key text, p_purpose text, p_owner uuid)
returns void
language plpgsql stable security definer set search_path = '' as $$
declare
  found app_private.uploads;
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
end $$;

-- One trigger function for every column that holds an upload key. Its arguments name the column,
-- the purpose the key must have been minted for, and the column holding the row's owner.
create function app_private.check_upload_key_column() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  row_values jsonb := to_jsonb(new);
begin
  perform app_private.check_upload_key(row_values ->> tg_argv[0], tg_argv[1], (row_values ->> tg_argv[2])::uuid);
  return new;
end $$;

create trigger profiles_check_avatar_key before insert or update of avatar_key on public.profiles
  for each row when (new.avatar_key is not null)
  execute function app_private.check_upload_key_column('avatar_key', 'avatar', 'id');
create trigger messages_check_attachment_key before insert on public.messages
  for each row when (new.attachment_key is not null)
  execute function app_private.check_upload_key_column('attachment_key', 'attachment', 'sender_id');
create trigger items_check_artwork_key before insert or update of artwork_key on public.items
  for each row when (new.artwork_key is not null)
  execute function app_private.check_upload_key_column('artwork_key', 'artwork', 'owner_id');
