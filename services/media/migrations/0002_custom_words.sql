-- Custom gestalts: a user's own words, each voiced once into an MP3 at
-- custom_audio/{user_id}/{file_name}. The same word (case-insensitive) is kept once per user.
CREATE TABLE media.custom_words (
  id bigserial PRIMARY KEY,
  user_id text NOT NULL,
  word text NOT NULL CHECK (char_length(word) BETWEEN 1 AND 30),
  word_key text NOT NULL,
  object_key text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, word_key)
);

-- Objects whose database rows are gone: removed from storage after the commit, and retried
-- from here (with backoff) until storage confirms, so no object is orphaned silently.
CREATE TABLE media.pending_object_deletions (
  object_key text PRIMARY KEY,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX pending_object_deletions_due ON media.pending_object_deletions (next_attempt_at);
