-- blocked_between is only needed inside the follow and message triggers, which run as their
-- owner. Executable by members, it would tell anyone whether any two other members blocked each
-- other; a member learns of a block only when it refuses their own follow or message.
revoke execute on function app_private.blocked_between(uuid, uuid) from authenticated;
