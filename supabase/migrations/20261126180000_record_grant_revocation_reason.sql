-- Why a grant ended, for the connected_app.revoked event (issue 32 item 6): the member revoked it
-- (Connected apps), the client revoked its refresh token (RFC 7009), or a reused code or refresh
-- token revoked the family. Grants revoked before this column existed keep null.
alter table app_private.oauth_grants
  add column revoked_reason text
    constraint oauth_grants_revoked_reason_check
    check (revoked_reason in ('member', 'client', 'code_reuse', 'refresh_token_reuse'));
