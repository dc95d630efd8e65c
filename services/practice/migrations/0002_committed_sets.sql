-- Candidate sets committed at the start (issue [22]): the whole set is drawn before any write-up
-- exists, the target uniformly inside it, and both are committed. One open session per viewer;
-- a session left too long is closed as abandoned and counted at the chance rank. The analytic
-- judge's rank and the write-up's figure of merit against the decoys are stored at the lock.

-- Series a viewer declares before their first session: n sessions, N candidates, judged how.
CREATE TABLE practice.series (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id text NOT NULL,
  declared_at timestamptz NOT NULL DEFAULT now(),
  sessions integer NOT NULL CHECK (sessions BETWEEN 5 AND 1000),
  candidate_count integer NOT NULL CHECK (candidate_count IN (5, 10)),
  judging text NOT NULL CHECK (judging IN ('self', 'analytic'))
);
CREATE INDEX series_user_idx ON practice.series (user_id, declared_at DESC);

ALTER TABLE practice.sessions
  ADD COLUMN candidate_commitment text,
  ADD COLUMN abandoned_at timestamptz,
  ADD COLUMN lock_lst_hours double precision,
  ADD COLUMN analytic_rank integer CHECK (analytic_rank BETWEEN 1 AND 10),
  ADD COLUMN chance_figure_of_merit double precision,
  ADD COLUMN series_id uuid REFERENCES practice.series (id);

-- Sessions started before the set was committed at the start cannot be judged fairly any more:
-- their decoys would be drawn after the write-up. They are kept, closed as abandoned.
UPDATE practice.sessions SET abandoned_at = now() WHERE judged_at IS NULL;

-- At most one session per viewer is open or locked and unjudged.
CREATE UNIQUE INDEX sessions_one_open_key ON practice.sessions (user_id)
  WHERE judged_at IS NULL AND abandoned_at IS NULL;
-- The sweeper's scan: sessions still open, oldest first.
CREATE INDEX sessions_open_started_idx ON practice.sessions (started_at)
  WHERE judged_at IS NULL AND abandoned_at IS NULL;
CREATE INDEX sessions_series_idx ON practice.sessions (series_id) WHERE series_id IS NOT NULL;
-- Deletes ask whether a target is in any session's set.
CREATE INDEX sessions_candidates_idx ON practice.sessions USING gin (candidates);
