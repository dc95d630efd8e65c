-- The administration: the app's settings, a log of maintenance actions, first-party analytics
-- events, and a trigram index for the admin list's accent-insensitive word search.

-- One row: what an administrator set in the admin panel.
CREATE TABLE descriptors.settings (
  id integer PRIMARY KEY CHECK (id = 1),
  default_language text NOT NULL DEFAULT 'en' CHECK (default_language IN ('en', 'de', 'fr', 'es', 'it')),
  default_stage text NOT NULL DEFAULT 'Stage 1-2' CHECK (default_stage IN ('Stage 1-2', 'Stage 2-3', 'Stage 4-6')),
  tachistoscope_access text NOT NULL DEFAULT 'admin' CHECK (tachistoscope_access IN ('admin', 'user')),
  updated_by text,
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO descriptors.settings (id) VALUES (1);

-- Seed, optimize, export and settings changes: who did what, when.
CREATE TABLE descriptors.admin_actions (
  id bigserial PRIMARY KEY,
  action text NOT NULL CHECK (action IN ('seed', 'optimize', 'export', 'settings')),
  user_id text NOT NULL,
  summary text NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX admin_actions_at_idx ON descriptors.admin_actions (at DESC);

-- Page views and tachistoscope events. No personal data beyond a signed-in sender's user id.
CREATE TABLE descriptors.analytics_events (
  id bigserial PRIMARY KEY,
  name text NOT NULL CHECK (name IN ('page_view', 'tachistoscope_start', 'tachistoscope_show_again', 'tachistoscope_complete')),
  path text NOT NULL CHECK (length(path) BETWEEN 1 AND 200),
  user_id text,
  props jsonb NOT NULL DEFAULT '{}',
  occurred_at timestamptz NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX analytics_events_name_received_idx ON descriptors.analytics_events (name, received_at);

-- 'cafe' finds 'Café' anywhere in the word: word_key is the folded word; a trigram index makes
-- the substring match indexed where the pg_trgm extension is available (PostgreSQL's contrib).
-- Where it is not (the embedded database), the search falls back to a scan of ~7,000 rows.
DO $$
DECLARE
  trgm_schema text;
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA descriptors;
  EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'pg_trgm unavailable (%): word search is not trigram-indexed', SQLERRM;
  END;
  SELECT extnamespace::regnamespace::text INTO trgm_schema FROM pg_extension WHERE extname = 'pg_trgm';
  IF trgm_schema IS NOT NULL THEN
    EXECUTE format(
      'CREATE INDEX descriptors_word_key_trgm_idx ON descriptors.descriptors USING gin (word_key %s.gin_trgm_ops)',
      trgm_schema);
  END IF;
END
$$;
