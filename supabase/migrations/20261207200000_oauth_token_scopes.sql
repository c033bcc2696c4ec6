-- A refresh may ask for fewer scopes than its grant holds (RFC 6749 §6, OAuth 2.1 §4.3): the access
-- token it issues carries that subset. Null, as on every token before this column, means the grant's
-- scopes. The grant keeps its own (the member's consent): a later refresh without scope gets them all.
alter table app_private.oauth_tokens
  add column scopes text[]
    constraint oauth_tokens_scopes_check
    check (scopes is null or kind = 'access');
