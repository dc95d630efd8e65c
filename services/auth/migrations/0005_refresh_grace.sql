-- A refresh whose reply was lost (issue [25]): the device still holds the token it sent. Within
-- the grace period that token may come back once and gets the same new pair; its successor is
-- derived from it with the service's secret, so no token is stored in the clear. This records
-- that once.
ALTER TABLE auth.refresh_tokens ADD COLUMN grace_used_at timestamptz;
