-- Every auth.users row is a member with a profile: a trigger makes it when GoTrue (or the built-in
-- sign-up) inserts the user, and the backfill below makes it for users that existed before (on a
-- Supabase project, the product's existing users become members at once). The handle comes from
-- the user's metadata `handle` when valid and free, else from the email's local part, with a
-- numeric suffix on a clash. The plan is always free: user metadata is writable by the user.
create function app_private.ensure_profile(user_id uuid, email text, meta jsonb) returns void
language plpgsql security definer set search_path = '' as $$
declare
  wanted text := coalesce(meta ->> 'handle', '');
  base text;
  candidate text;
  attempt int := 0;
begin
  if exists (select 1 from public.profiles where id = user_id) then
    return;
  end if;
  if wanted !~ '^[A-Za-z0-9_]{3,30}$' then
    wanted := '';
  end if;
  base := regexp_replace(regexp_replace(split_part(coalesce(email, ''), '@', 1), '[^A-Za-z0-9_]', '_', 'g'), '^_+|_+$', '', 'g');
  if char_length(base) < 3 then
    base := left('member_' || base, 24);
  end if;
  base := left(base, 24);
  loop
    candidate := case
      when attempt = 0 and wanted <> '' then wanted
      when attempt <= 1 then base
      else base || '_' || (10000 + floor(random() * 90000))::int
    end;
    insert into public.profiles (id, handle, display_name)
    values (user_id, candidate, left(coalesce(nullif(meta ->> 'display_name', ''), candidate), 100))
    on conflict do nothing;
    exit when exists (select 1 from public.profiles where id = user_id);
    attempt := attempt + 1;
    if attempt > 25 then
      raise exception 'could not find a free handle for user %', user_id;
    end if;
  end loop;
end $$;
revoke all on function app_private.ensure_profile(uuid, text, jsonb) from public, anon, authenticated;

create function app_private.create_profile_for_new_user() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform app_private.ensure_profile(new.id, new.email, coalesce(new.raw_user_meta_data, '{}'::jsonb));
  return new;
end $$;
revoke all on function app_private.create_profile_for_new_user() from public, anon, authenticated;

create trigger pds_create_profile after insert on auth.users
  for each row execute function app_private.create_profile_for_new_user();

select app_private.ensure_profile(u.id, u.email, coalesce(u.raw_user_meta_data, '{}'::jsonb))
from auth.users u
where not exists (select 1 from public.profiles p where p.id = u.id);
