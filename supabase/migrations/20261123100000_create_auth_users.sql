-- Members are Supabase users. On a Supabase project auth.users already exists (GoTrue owns it) and
-- is left exactly as it is; on the embedded PGlite or a plain Postgres server it is created here in
-- Supabase's shape, so code written for Supabase (and users exported from it) works unchanged.
-- Credentials stay out of reach of members: no grant to anon or authenticated.
do $$
begin
  if to_regclass('auth.users') is null then
    create table auth.users (
      instance_id uuid,
      id uuid primary key default gen_random_uuid(),
      aud varchar(255) default 'authenticated',
      role varchar(255) default 'authenticated',
      email varchar(255),
      encrypted_password varchar(255),
      email_confirmed_at timestamptz,
      invited_at timestamptz,
      confirmation_token varchar(255),
      confirmation_sent_at timestamptz,
      recovery_token varchar(255),
      recovery_sent_at timestamptz,
      email_change_token_new varchar(255),
      email_change varchar(255),
      email_change_sent_at timestamptz,
      last_sign_in_at timestamptz,
      raw_app_meta_data jsonb default '{}'::jsonb,
      raw_user_meta_data jsonb default '{}'::jsonb,
      is_super_admin boolean,
      created_at timestamptz default now(),
      updated_at timestamptz default now(),
      phone text unique default null,
      phone_confirmed_at timestamptz,
      phone_change text default '',
      phone_change_token varchar(255) default '',
      phone_change_sent_at timestamptz,
      email_change_token_current varchar(255) default '',
      email_change_confirm_status smallint default 0,
      banned_until timestamptz,
      reauthentication_token varchar(255) default '',
      reauthentication_sent_at timestamptz,
      is_sso_user boolean not null default false,
      deleted_at timestamptz,
      is_anonymous boolean not null default false
    );
    -- GoTrue stores emails lower-cased and keeps them unique among non-SSO users; the same here.
    create unique index users_email_partial_key on auth.users (lower(email)) where is_sso_user = false;
    alter table auth.users enable row level security;
    revoke all on auth.users from public, anon, authenticated;
  end if;
end $$;
