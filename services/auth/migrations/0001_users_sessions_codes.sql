-- Users, their sign-in identities, phone codes and refresh tokens. Secrets are stored hashed.
CREATE TABLE auth.users (
  id text PRIMARY KEY,
  display_name text NOT NULL,
  first_name text NOT NULL,
  email text,
  phone text UNIQUE,
  photo_url text,
  role text NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin')),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_sign_in_at timestamptz
);
CREATE UNIQUE INDEX users_email_key ON auth.users (lower(email));

-- One row per account at an OpenID Connect provider (issuer + subject).
CREATE TABLE auth.identities (
  issuer text NOT NULL,
  subject text NOT NULL,
  user_id text NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX identities_user_idx ON auth.identities (user_id);

-- Codes are HMACs of phone and code; the plain code exists only in the SMS.
CREATE TABLE auth.phone_codes (
  id bigserial PRIMARY KEY,
  phone text NOT NULL,
  code_hash text NOT NULL,
  ip text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  consumed_at timestamptz,
  burned boolean NOT NULL DEFAULT false
);
CREATE INDEX phone_codes_phone_idx ON auth.phone_codes (phone, created_at DESC);
CREATE INDEX phone_codes_ip_idx ON auth.phone_codes (ip, created_at DESC);

-- Refresh tokens rotate on every use; all tokens descending from one sign-in share a family,
-- and the reuse of a rotated token revokes the family.
CREATE TABLE auth.refresh_tokens (
  token_hash text PRIMARY KEY,
  family_id text NOT NULL,
  user_id text NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  rotated_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX refresh_tokens_family_idx ON auth.refresh_tokens (family_id);
CREATE INDEX refresh_tokens_user_idx ON auth.refresh_tokens (user_id);
