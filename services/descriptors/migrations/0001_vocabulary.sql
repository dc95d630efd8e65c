-- The vocabulary: categories (gestalts and perceptions by CRV stage), concepts that link one
-- descriptor across languages, the descriptors themselves (system, approved, pending), and
-- each user's hides.
CREATE TABLE descriptors.categories (
  id serial PRIMARY KEY,
  slug text NOT NULL UNIQUE,
  type text NOT NULL CHECK (type IN ('gestalt', 'perception')),
  stage text NOT NULL CHECK (stage IN ('Stage 1-2', 'Stage 2-3', 'Stage 4-6')),
  position integer NOT NULL
);

CREATE TABLE descriptors.category_names (
  category_id integer NOT NULL REFERENCES descriptors.categories (id) ON DELETE CASCADE,
  language text NOT NULL,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  PRIMARY KEY (category_id, language)
);

-- One concept per meaning: the shipped ones carry the vocabulary's id (slug); a user's word
-- is a concept of its own.
CREATE TABLE descriptors.concepts (
  id serial PRIMARY KEY,
  slug text UNIQUE,
  category_id integer NOT NULL REFERENCES descriptors.categories (id),
  pos text NOT NULL CHECK (pos IN ('adjective', 'noun', 'verb'))
);

CREATE TABLE descriptors.descriptors (
  id bigserial PRIMARY KEY,
  concept_id integer NOT NULL REFERENCES descriptors.concepts (id) ON DELETE CASCADE,
  category_id integer NOT NULL REFERENCES descriptors.categories (id),
  language text NOT NULL CHECK (language IN ('en', 'de', 'fr', 'es', 'it', 'ja', 'zh')),
  word text NOT NULL CHECK (length(word) BETWEEN 1 AND 60),
  reading text,
  -- The word folded (lower case, no accents) for accent-insensitive search and duplicates.
  word_key text NOT NULL,
  status text NOT NULL CHECK (status IN ('system', 'approved', 'pending')),
  created_by text,
  is_custom boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX descriptors_concept_language_key ON descriptors.descriptors (concept_id, language) WHERE NOT is_custom;
CREATE UNIQUE INDEX descriptors_custom_key ON descriptors.descriptors (created_by, language, category_id, word_key) WHERE is_custom;
CREATE INDEX descriptors_language_status_idx ON descriptors.descriptors (language, status);
CREATE INDEX descriptors_created_by_idx ON descriptors.descriptors (created_by) WHERE created_by IS NOT NULL;
CREATE INDEX descriptors_word_key_idx ON descriptors.descriptors (word_key text_pattern_ops);

CREATE TABLE descriptors.hidden (
  user_id text NOT NULL,
  descriptor_id bigint NOT NULL REFERENCES descriptors.descriptors (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, descriptor_id)
);
CREATE INDEX hidden_descriptor_idx ON descriptors.hidden (descriptor_id);

-- What the last seed loaded, so a start with unchanged data skips the work.
CREATE TABLE descriptors.seed_state (
  id integer PRIMARY KEY CHECK (id = 1),
  data_hash text NOT NULL,
  seeded_at timestamptz NOT NULL DEFAULT now()
);
