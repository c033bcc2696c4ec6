-- Constraints Postgres named only "<table>_check" say nothing about what they guard; every
-- constraint's name keys its stable error code in supabase/constraint-errors.json.
alter table public.blocks rename constraint blocks_check to blocks_not_self;
alter table app_private.idempotency_keys rename constraint idempotency_keys_check to idempotency_keys_done_has_status;
