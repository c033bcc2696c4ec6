-- Bounds the registry states and only the API enforced: the store now refuses the same values
-- (writes by SQL, e.g. a Supabase client, included). test/db/registry-drift.test.ts pins each one.
alter table public.goals
  add constraint goals_target_value_max check (target_value <= 1000000000000),
  add constraint goals_current_value_max check (current_value <= 1000000000000);
alter table public.items
  add constraint items_position_max check (position <= 1000000),
  add constraint items_artwork_key_length check (char_length(artwork_key) between 1 and 300);
alter table public.todos
  add constraint todos_recurrence_length check (char_length(recurrence) <= 200);
alter table public.messages
  add constraint messages_attachment_url_length check (char_length(attachment_url) <= 2000),
  add constraint messages_attachment_key_length check (char_length(attachment_key) between 1 and 300);
alter table public.profiles
  add constraint profiles_timezone_length check (char_length(timezone) between 1 and 64),
  add constraint profiles_avatar_key_length check (char_length(avatar_key) between 1 and 300);
alter table public.streaks
  add constraint streaks_timezone_length check (char_length(timezone) between 1 and 64);
