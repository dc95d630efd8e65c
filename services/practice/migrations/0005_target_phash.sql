-- Near-duplicate pictures (issue [24]): each target keeps the perceptual hash of its stored
-- picture, and a new picture whose hash is close to a target's of its pool is refused (the
-- threshold is in src/near-duplicates/perceptual-hash.ts). Targets from before, and those the
-- starter seed adds, get theirs from their stored picture at start-up
-- (src/near-duplicates/backfill.ts): null only until then.
ALTER TABLE practice.targets
  ADD COLUMN phash bit(64),
  -- A picture of one flat colour: its hash is rounding noise, so it is never compared by it.
  ADD COLUMN phash_flat boolean,
  ADD CONSTRAINT targets_phash_complete CHECK ((phash IS NULL) = (phash_flat IS NULL));
CREATE INDEX targets_phash_missing_idx ON practice.targets (id) WHERE phash IS NULL;

-- The licence allowlist: CC0, public domain, the project's own, and CC BY or CC BY-SA 2.0 to
-- 4.0 (with an attribution, which the service requires).
ALTER TABLE practice.targets DROP CONSTRAINT targets_licence_check;
ALTER TABLE practice.targets ADD CONSTRAINT targets_licence_check CHECK (licence IN (
  'CC0-1.0', 'public-domain', 'own',
  'CC-BY-2.0', 'CC-BY-2.5', 'CC-BY-3.0', 'CC-BY-4.0',
  'CC-BY-SA-2.0', 'CC-BY-SA-2.5', 'CC-BY-SA-3.0', 'CC-BY-SA-4.0'));

-- Pictures stored for targets whose rows are not committed yet. The rows' transaction deletes
-- their entries; an entry left behind (a run that died before its commit) names a picture
-- without a target, which the sweeper removes.
CREATE TABLE practice.pending_images (
  image_key text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now()
);
