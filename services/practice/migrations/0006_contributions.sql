-- Contributions (issue [24] items 2 and 3): any signed-in user submits a picture with its
-- licence and their tags; an administrator other than the contributor tags it again without
-- seeing those tags; a moderator approves it into a pool (with the agreed tags) or rejects it
-- with a reason the contributor sees. Only an approved, second-tagged contribution becomes a
-- target, and a contributor is never shown their own: the draw leaves out targets they
-- contributed, from the whole set.
CREATE TABLE practice.contributions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id text NOT NULL,
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  feedback text NOT NULL CHECK (length(feedback) BETWEEN 1 AND 2000),
  -- The contributor's own photograph (licensed by them under CC0 or CC BY 4.0), or a found one.
  own_work boolean NOT NULL,
  licence text NOT NULL CHECK (licence IN (
    'CC0-1.0', 'public-domain',
    'CC-BY-2.0', 'CC-BY-2.5', 'CC-BY-3.0', 'CC-BY-4.0',
    'CC-BY-SA-2.0', 'CC-BY-SA-2.5', 'CC-BY-SA-3.0', 'CC-BY-SA-4.0')),
  source text NOT NULL DEFAULT '',
  attribution text,
  -- The picture as stored (re-encoded, no metadata), under its own key: a target made from it
  -- gets a copy under a new key.
  image_key text NOT NULL UNIQUE,
  image_sha256 text NOT NULL,
  phash bit(64) NOT NULL,
  phash_flat boolean NOT NULL,
  -- The contributor's tags, and the second tagger's (an administrator, never the contributor).
  tags text[] NOT NULL CHECK (cardinality(tags) BETWEEN 1 AND 50),
  second_tags text[] CHECK (cardinality(second_tags) BETWEEN 1 AND 50),
  second_tagger text,
  second_tagged_at timestamptz,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'in_pool', 'rejected')),
  decided_by text,
  decided_at timestamptz,
  rejection_reason text CHECK (length(rejection_reason) BETWEEN 1 AND 500),
  -- The tags both chose, with those of one tagger the moderator confirmed: the target's tags.
  agreed_tags text[],
  pool_id uuid REFERENCES practice.pools (id),
  -- Null again when an administrator deletes the target (one no session ever used).
  target_id uuid REFERENCES practice.targets (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT contributions_second_tags_complete CHECK (
    (second_tags IS NULL) = (second_tagger IS NULL)
    AND (second_tags IS NULL) = (second_tagged_at IS NULL)),
  CONSTRAINT contributions_decision_complete CHECK (
    (status = 'pending') = (decided_at IS NULL)
    AND (status = 'rejected') = (rejection_reason IS NOT NULL)
    AND (status <> 'in_pool' OR (second_tags IS NOT NULL AND agreed_tags IS NOT NULL
                                 AND pool_id IS NOT NULL)))
);
CREATE INDEX contributions_user_idx ON practice.contributions (user_id, created_at DESC);
CREATE INDEX contributions_status_idx ON practice.contributions (status, created_at);

ALTER TABLE practice.targets
  -- Who contributed the target (null for the starter pool, uploads and imports): never drawn
  -- into a set of theirs.
  ADD COLUMN contributed_by text,
  -- Cohen's κ of its two taggers (src/contributions/agreement.ts); null with one tagger.
  ADD COLUMN tag_kappa double precision CHECK (tag_kappa BETWEEN -1 AND 1);
CREATE INDEX targets_contributed_by_idx ON practice.targets (contributed_by)
  WHERE contributed_by IS NOT NULL;
