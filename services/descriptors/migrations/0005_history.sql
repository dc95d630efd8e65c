-- Training sessions a signed-in user finished (ideogram, descriptor training, tachistoscope),
-- for the progress page and the user's export. Reviews are counted from review_answers.
CREATE TABLE descriptors.training_sessions (
  user_id text NOT NULL,
  -- Made by the client: a session sent twice is kept once.
  id uuid NOT NULL,
  activity text NOT NULL CHECK (activity IN ('ideogram', 'descriptors', 'tachistoscope')),
  started_at timestamptz NOT NULL,
  duration_ms integer NOT NULL CHECK (duration_ms BETWEEN 0 AND 86400000),
  details jsonb NOT NULL DEFAULT '{}',
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, id)
);
CREATE INDEX training_sessions_user_idx ON descriptors.training_sessions (user_id, started_at);
