-- Every constraint a write can hit has a name of its own, so supabase/constraint-errors.json can give
-- it a stable code and a pointer (a generic "<table>_check" name would move if the table changed).
alter table public.webhook_deliveries rename constraint webhook_deliveries_check to webhook_deliveries_pending_has_next_attempt;
