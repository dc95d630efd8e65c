-- A pool that lasts (issue [24]): a viewer who has had every target keeps practising. Sets are
-- drawn within one class of this viewer's history (never shown; shown 180 days ago or more, or
-- never; or else the pictures shown longest ago), so a target can come again: the rule that
-- every candidate is equally likely to be the target still holds, as the target is picked
-- uniformly inside the set after it is drawn.
DROP INDEX practice.sessions_user_target_key;

-- When each picture was last shown to each viewer: the candidates of every set, at its lock.
CREATE TABLE practice.seen (
  user_id text NOT NULL,
  target_id uuid NOT NULL REFERENCES practice.targets (id),
  last_shown_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, target_id)
);
INSERT INTO practice.seen (user_id, target_id, last_shown_at)
SELECT s.user_id, c.id, max(s.locked_at)
FROM practice.sessions s, unnest(s.candidates) AS c (id)
WHERE s.locked_at IS NOT NULL
GROUP BY s.user_id, c.id;

-- Each session says whether its pictures may have been shown before: its class, and the latest
-- earlier showing of any of them.
ALTER TABLE practice.sessions
  ADD COLUMN familiarity text NOT NULL DEFAULT 'unseen'
    CHECK (familiarity IN ('unseen', 'rested', 'recent')),
  ADD COLUMN last_shown_at timestamptz;
UPDATE practice.sessions s
SET last_shown_at = (
  SELECT max(p.locked_at) FROM practice.sessions p
  WHERE p.user_id = s.user_id AND p.locked_at IS NOT NULL AND p.locked_at < s.started_at
    AND p.candidates && s.candidates)
WHERE s.candidates IS NOT NULL;
UPDATE practice.sessions
SET familiarity = CASE WHEN last_shown_at >= started_at - interval '180 days' THEN 'recent'
                       ELSE 'rested' END
WHERE last_shown_at IS NOT NULL;
ALTER TABLE practice.sessions ALTER COLUMN familiarity DROP DEFAULT;
