-- Target pools, targets and practice sessions. A session's target is sealed: no answer names it
-- (or its image key) before the session's lock.
CREATE TABLE practice.pools (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  slug text NOT NULL UNIQUE,
  name text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 100),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE practice.targets (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  pool_id uuid NOT NULL REFERENCES practice.pools (id),
  -- The starter pool's own name for a target (seeding is idempotent by it); null for uploads.
  slug text UNIQUE,
  title text NOT NULL,
  feedback text NOT NULL,
  tags text[] NOT NULL DEFAULT '{}',
  licence text NOT NULL CHECK (licence IN ('CC0-1.0', 'public-domain', 'CC-BY-4.0', 'own')),
  source text NOT NULL DEFAULT '',
  attribution text,
  frontloading text,
  -- Random, unrelated to the id: the image's name in storage and in its URL.
  image_key text NOT NULL UNIQUE,
  image_sha256 text NOT NULL,
  retired_at timestamptz,
  -- Deleted by an administrator while an open session may still hold it: hidden, kept until free.
  deleted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX targets_pool_idx ON practice.targets (pool_id) WHERE retired_at IS NULL AND deleted_at IS NULL;

CREATE TABLE practice.sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id text NOT NULL,
  pool_id uuid NOT NULL REFERENCES practice.pools (id),
  target_id uuid NOT NULL REFERENCES practice.targets (id),
  trn text NOT NULL,
  nonce text NOT NULL,
  commitment text NOT NULL,
  candidate_count integer NOT NULL CHECK (candidate_count IN (5, 10)),
  frontloading text,
  started_at timestamptz NOT NULL DEFAULT now(),
  lst_hours double precision,
  latitude double precision,
  longitude double precision,
  write_up jsonb NOT NULL DEFAULT '{}',
  revision integer NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now(),
  locked_at timestamptz,
  write_up_sha256 text,
  candidates uuid[],
  judged_at timestamptz,
  ranking uuid[],
  rank integer,
  score jsonb
);
-- A user never gets the same target twice, on any device (and two starts at once cannot race).
CREATE UNIQUE INDEX sessions_user_target_key ON practice.sessions (user_id, target_id);
CREATE INDEX sessions_user_started_idx ON practice.sessions (user_id, started_at DESC);

-- What the last starter-pool seed loaded, so an unchanged pool is skipped.
CREATE TABLE practice.seed_state (
  id integer PRIMARY KEY CHECK (id = 1),
  data_hash text NOT NULL,
  seeded_at timestamptz NOT NULL DEFAULT now()
);
