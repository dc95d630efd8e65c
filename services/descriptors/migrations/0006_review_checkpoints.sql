-- The card as each answer left it (its last review is the answer's own `answered_at`): an answer
-- that arrives late is replayed from the card just before it, not from the word's first answer,
-- so what a request steps through does not grow with the word's history (issue [23] item 3).
-- A replay rewrites it for every answer after the place the late answer takes. NULL on answers
-- recorded before this migration: a replay starts from an earlier answer that has it (or from
-- the first) and fills them in.
ALTER TABLE descriptors.review_answers
  ADD COLUMN after_state smallint CHECK (after_state BETWEEN 0 AND 3),
  ADD COLUMN after_due timestamptz,
  ADD COLUMN after_stability double precision,
  ADD COLUMN after_difficulty double precision,
  ADD COLUMN after_elapsed_days integer,
  ADD COLUMN after_scheduled_days integer,
  ADD COLUMN after_learning_steps integer,
  ADD COLUMN after_reps integer,
  ADD COLUMN after_lapses integer,
  ADD CONSTRAINT review_answers_after_whole CHECK (
    num_nulls(after_state, after_due, after_stability, after_difficulty, after_elapsed_days,
              after_scheduled_days, after_learning_steps, after_reps, after_lapses) IN (0, 9)
  );
