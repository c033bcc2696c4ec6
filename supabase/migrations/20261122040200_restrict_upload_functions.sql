-- "alter default privileges in schema app_private revoke execute ... from public" cannot take away
-- the global default (PUBLIC may execute every new function), so each upload function says here
-- who may run it: members mint; only the service completes; the checks run inside triggers only.
revoke execute on function app_private.mint_upload(text, text, bigint, integer) from public;
grant execute on function app_private.mint_upload(text, text, bigint, integer) to authenticated;
revoke execute on function app_private.complete_upload(text, text, bigint) from public;
revoke execute on function app_private.check_upload_key(text, text, uuid) from public;
revoke execute on function app_private.check_avatar_key() from public;
revoke execute on function app_private.check_attachment_key() from public;
revoke execute on function app_private.check_artwork_key() from public;
