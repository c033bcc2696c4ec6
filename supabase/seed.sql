-- Local development data for `supabase db reset` (never applied by the service's own migrator).
-- One member who signs in at /settings with ada@example.com / correct horse battery, created the
-- way Supabase Auth stores a user (bcrypt hash, email identity); the trigger on auth.users gives
-- her a profile with the handle "ada".
do $$
declare
  ada uuid := '00000000-0000-4000-8000-00000000ada0';
begin
  if exists (select 1 from auth.users where id = ada) then
    return;
  end if;
  insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                          confirmation_token, recovery_token, email_change_token_new, email_change,
                          raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
  values ('00000000-0000-0000-0000-000000000000', ada, 'authenticated', 'authenticated', 'ada@example.com',
          extensions.crypt('correct horse battery', extensions.gen_salt('bf')), now(), '', '', '', '',
          '{"provider": "email", "providers": ["email"]}', '{"handle": "ada"}', now(), now());
  insert into auth.identities (id, user_id, provider_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
  values (gen_random_uuid(), ada, ada::text, jsonb_build_object('sub', ada::text, 'email', 'ada@example.com', 'email_verified', true),
          'email', now(), now(), now());
  insert into public.collections (owner_id, name, type, visibility)
  values (ada, 'Road trip', 'music', 'private'), (ada, 'To read', 'books', 'public');
end $$;
