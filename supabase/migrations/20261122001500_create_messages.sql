-- Direct messages: written once, read by sender and recipient only. Blocks and the recipient's
-- attachment consent are enforced here, whatever path the write takes.
create table public.messages (
  id uuid primary key default gen_random_uuid(),
  sender_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  recipient_id uuid not null references public.profiles (id) on delete cascade,
  body text not null check (char_length(body) between 1 and 10000),
  attachment_key text,
  attachment_url text check (attachment_url ~ '^https://'),
  created_at timestamptz not null default now(),
  constraint messages_not_to_self check (sender_id <> recipient_id)
);
create index messages_sender_created_idx on public.messages (sender_id, created_at desc, id desc);
create index messages_recipient_created_idx on public.messages (recipient_id, created_at desc, id desc);

alter table public.messages enable row level security;
revoke all on public.messages from anon, authenticated;
grant select on public.messages to authenticated;
grant insert (recipient_id, body, attachment_key, attachment_url) on public.messages to authenticated;

create policy "members read messages they sent or received" on public.messages
  for select to authenticated
  using (sender_id = (select auth.uid()) or recipient_id = (select auth.uid()));
create policy "members send messages as themselves" on public.messages
  for insert to authenticated with check (sender_id = (select auth.uid()));

create function app_private.enforce_message_rules() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  consent text;
begin
  if app_private.blocked_between(new.sender_id, new.recipient_id) then
    raise exception 'cannot send: one of these members has blocked the other' using errcode = '42501';
  end if;
  if new.attachment_key is not null or new.attachment_url is not null then
    select attachment_consent into consent from public.profiles where id = new.recipient_id;
    if consent = 'nobody' or (consent = 'following' and not exists (
      select 1 from public.follows where follower_id = new.recipient_id and followee_id = new.sender_id
    )) then
      raise exception 'the recipient does not accept attachments from this sender (attachment consent: %)', consent
        using errcode = '42501';
    end if;
  end if;
  return new;
end $$;
create trigger messages_enforce_rules before insert on public.messages
  for each row execute function app_private.enforce_message_rules();
