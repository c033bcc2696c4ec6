-- A member's credentials. The member id is the subject of every token and every RLS check.
create table app_private.members (
  id uuid primary key default gen_random_uuid(),
  email extensions.citext not null unique,
  password_hash text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create trigger members_touch before update on app_private.members
  for each row execute function app_private.touch_updated_at();
