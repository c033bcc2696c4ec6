-- The resolver now writes the catalog as the service, outside any member transaction, so no member
-- needs (or gets) the right to call the catalog's write function directly.
revoke execute on function app_private.upsert_catalog_entry(jsonb) from authenticated;
