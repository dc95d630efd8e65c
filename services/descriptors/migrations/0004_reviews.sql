-- Spaced repetition of descriptors (FSRS): each user's card per word, and every answer they
-- gave. The card is what the answers add up to; an answer that arrives out of order (a phone
-- syncing late) is placed by `answered_at` and the card recomputed from them.
CREATE TABLE descriptors.review_cards (
  user_id text NOT NULL,
  descriptor_id bigint NOT NULL REFERENCES descriptors.descriptors (id) ON DELETE CASCADE,
  language text NOT NULL,
  -- ts-fsrs State: 0 new, 1 learning, 2 review, 3 relearning.
  state smallint NOT NULL CHECK (state BETWEEN 0 AND 3),
  due timestamptz NOT NULL,
  stability double precision NOT NULL,
  difficulty double precision NOT NULL,
  elapsed_days integer NOT NULL,
  scheduled_days integer NOT NULL,
  learning_steps integer NOT NULL,
  reps integer NOT NULL,
  lapses integer NOT NULL,
  last_review timestamptz,
  -- When the word was first answered: new words a day are counted by it.
  first_review timestamptz NOT NULL,
  PRIMARY KEY (user_id, descriptor_id)
);
CREATE INDEX review_cards_due_idx ON descriptors.review_cards (user_id, language, due);

CREATE TABLE descriptors.review_answers (
  user_id text NOT NULL,
  -- Made by the client when the answer is given: a retry or a second sync is the same row.
  id uuid NOT NULL,
  descriptor_id bigint NOT NULL REFERENCES descriptors.descriptors (id) ON DELETE CASCADE,
  language text NOT NULL,
  rating smallint NOT NULL CHECK (rating BETWEEN 1 AND 4),
  -- The card's state just before this answer (retention counts answers in the review state).
  state smallint NOT NULL CHECK (state BETWEEN 0 AND 3),
  answered_at timestamptz NOT NULL,
  duration_ms integer,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, id)
);
CREATE INDEX review_answers_card_idx ON descriptors.review_answers (user_id, descriptor_id, answered_at);
CREATE INDEX review_answers_day_idx ON descriptors.review_answers (user_id, language, answered_at);
