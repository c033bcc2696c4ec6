-- The default undo takes the credential's latest write, not its latest one that could be undone (the tester's
-- defect 5: a collection types switch was passed over and an older rename reverted). p_undoable, which only undo
-- used, filtered out creates and writes without an image; p_pending keeps every entry not undone yet and
-- not an undo's own write, and undo refuses the latest one itself when it cannot be taken back. A parameter
-- cannot be renamed in place, so the function is dropped and made again, with the same grant.
drop function app_private.credential_writes(timestamptz, text, text, uuid, boolean, integer);
create function app_private.credential_writes(
  p_since timestamptz, p_kind text, p_actor text, p_entry uuid, p_pending boolean, p_limit integer)
returns table (
  id uuid, actor_kind text, actor_id text, surface text, operation text, record_id uuid, undo_of uuid,
  before jsonb, after jsonb, undone_at timestamptz, created_at timestamptz, record_sequence bigint)
language sql stable security definer set search_path = '' as $$
  select e.id, e.actor_kind, e.actor_id, e.actor_surface, e.type, e.record_id, e.undo_of, e.before, e.data,
         e.undone_at, e.created_at, e.record_sequence
    from app_private.webhook_events e
   where e.member_id = (select auth.uid()) and e.actor_member = (select auth.uid()) and e.created_at > p_since
     and (p_kind is null or (e.actor_kind = p_kind and e.actor_id = p_actor))
     and (p_entry is null or e.id = p_entry)
     and (not p_pending or (e.undone_at is null and e.undo_of is null))
   order by e.txid desc, e.log_position desc
   limit p_limit
$$;
revoke all on function app_private.credential_writes(timestamptz, text, text, uuid, boolean, integer) from public;
grant execute on function app_private.credential_writes(timestamptz, text, text, uuid, boolean, integer) to authenticated;
