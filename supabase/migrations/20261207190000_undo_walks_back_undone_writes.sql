-- Undo, called again and again, walks back a credential's writes one at a time (the tester's defect 4: two
-- updates of one record, undone by default twice).
--
-- app_private.unchanged_since compared the record's last event sequence with the entry's, so the undo of a
-- later update counted as a change since the earlier one: the second undo was refused (409, nothing named but
-- updated_at), and, as the earlier entry stayed the default, so was every default undo after it. An event
-- since the entry now does not count when it is one half of a write and its undo, both since the entry: the
-- undo put back what that write changed, so the record is as the entry left it. Anything else since (the
-- member's edit, a recount, a write undone and then its undo undone) still counts; a deletion brought back
-- by undo has no such link, and undo (lib/domain/activity/undo.ts) lets it pass only when the record reads
-- exactly as the entry left it, its updated_at included.
create or replace function app_private.unchanged_since(p_entry uuid) returns boolean
language plpgsql stable security definer set search_path = '' as $$
declare
  v_record uuid;
  v_sequence bigint;
  v_txid xid8;
  v_position bigint;
  v_last bigint;
begin
  select e.record_id, e.record_sequence, e.txid, e.log_position into v_record, v_sequence, v_txid, v_position
    from app_private.webhook_events e
   where e.id = p_entry and e.actor_member = (select auth.uid());
  select s.last_sequence into v_last from app_private.record_event_sequences s where s.record_id = v_record;
  if v_sequence is null or v_last is null then
    return false;
  end if;
  if v_last = v_sequence then
    return true;
  end if;
  -- The member's own records' events are in the member's log (its index, from the entry on); the count
  -- makes sure none of the record's events since was missed (one of another audience would be).
  return coalesce((
    with since as (
      select e.id, e.undo_of from app_private.webhook_events e
       where e.member_id = (select auth.uid()) and (e.txid, e.log_position) > (v_txid, v_position)
         and e.record_id = v_record and e.record_sequence > v_sequence)
    select count(*) = v_last - v_sequence
       -- Each one either undoes one of them or is undone by one of them, never both (an undo undone).
       and bool_and((s.undo_of is not null and s.undo_of in (select id from since))
                    <> exists (select from since u where u.undo_of = s.id))
      from since s), false);
end $$;
