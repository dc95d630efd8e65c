-- Social sign-in logins in progress (OpenID Connect): one row per authorization request, used
-- once (deleted by the callback), valid 10 minutes, and bound to the browser that started it
-- (browser_hash is the SHA-256 of its httpOnly crv_oidc cookie). The state is stored hashed.
CREATE TABLE auth.oidc_logins (
  state_hash text PRIMARY KEY,
  browser_hash text NOT NULL,
  nonce text NOT NULL,
  code_verifier text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('popup', 'redirect')),
  return_to text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX oidc_logins_expires_idx ON auth.oidc_logins (expires_at);
