-- Today's members become auth.users rows with the same ids, so tokens, sessions and every owner
-- column keep pointing at the same person. Password hashes move as they are (scrypt still
-- verifies, and is rehashed to argon2id on the next sign-in). Every foreign key that named
-- app_private.members is repointed at auth.users(id), then the old table goes.
do $$
declare
  fk record;
begin
  if to_regclass('app_private.members') is null then
    return;
  end if;

  -- Empty strings, not nulls, in GoTrue's token columns: GoTrue cannot read a null there.
  insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                          confirmation_token, recovery_token, email_change_token_new, email_change,
                          raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
  select '00000000-0000-0000-0000-000000000000', m.id, 'authenticated', 'authenticated', lower(m.email::text),
         m.password_hash, m.created_at, '', '', '', '',
         '{"provider": "email", "providers": ["email"]}'::jsonb, '{}'::jsonb, m.created_at, m.updated_at
  from app_private.members m
  on conflict (id) do nothing;

  for fk in
    select c.conname, c.conrelid::regclass::text as tbl, a.attname
    from pg_catalog.pg_constraint c
    join pg_catalog.pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
    where c.contype = 'f' and c.confrelid = 'app_private.members'::regclass
  loop
    execute format('alter table %s drop constraint %I', fk.tbl, fk.conname);
    execute format('alter table %s add constraint %I foreign key (%I) references auth.users (id) on delete cascade',
                   fk.tbl, fk.conname, fk.attname);
  end loop;

  drop table app_private.members;
end $$;
