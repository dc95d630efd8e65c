-- Access tokens that must no longer write: 'user:<id>' once the account is deleted, 'session:<id>'
-- once that sign-in (refresh-token family) is signed out or revoked for reuse. Every service asks
-- the auth service about a token before a write; a row is needed only until every token it
-- names has expired, so rows are pruned after the access tokens' lifetime.
CREATE TABLE auth.revoked_tokens (
  subject text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX revoked_tokens_expires_idx ON auth.revoked_tokens (expires_at);
