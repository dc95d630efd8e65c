-- A start draws from its pool's active targets (issue [24]: thousands of them) and the viewer's
-- last showings of them (a thousand past sessions). The service keeps both between starts and
-- checks them by version; these are the versions.

-- Each pool's targets' version, bumped by every statement that adds, removes or changes what a
-- draw reads of its targets, in that statement's transaction: a list read together with it (one
-- statement, one snapshot) is exactly the list of that version.
ALTER TABLE practice.pools ADD COLUMN targets_version bigint NOT NULL DEFAULT 1;

CREATE FUNCTION practice.bump_targets_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE practice.pools SET targets_version = targets_version + 1
    WHERE id IN (SELECT pool_id FROM new_targets);
  ELSIF TG_OP = 'UPDATE' THEN
    -- Only what a draw reads: a perceptual hash computed, a title or tags edited, move no list.
    UPDATE practice.pools SET targets_version = targets_version + 1
    WHERE id IN (
      SELECT p.pool_id
      FROM new_targets n JOIN old_targets o USING (id),
           LATERAL (VALUES (n.pool_id), (o.pool_id)) AS p (pool_id)
      WHERE (n.pool_id, n.retired_at, n.deleted_at, n.frontloading, n.contributed_by)
            IS DISTINCT FROM (o.pool_id, o.retired_at, o.deleted_at, o.frontloading, o.contributed_by));
  ELSE
    UPDATE practice.pools SET targets_version = targets_version + 1
    WHERE id IN (SELECT pool_id FROM old_targets);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER targets_version_insert AFTER INSERT ON practice.targets
REFERENCING NEW TABLE AS new_targets
FOR EACH STATEMENT EXECUTE FUNCTION practice.bump_targets_version();
CREATE TRIGGER targets_version_update AFTER UPDATE ON practice.targets
REFERENCING OLD TABLE AS old_targets NEW TABLE AS new_targets
FOR EACH STATEMENT EXECUTE FUNCTION practice.bump_targets_version();
CREATE TRIGGER targets_version_delete AFTER DELETE ON practice.targets
REFERENCING OLD TABLE AS old_targets
FOR EACH STATEMENT EXECUTE FUNCTION practice.bump_targets_version();

-- The viewer's showings are checked by their version, the viewer's latest showing (showings
-- only move forward, to the moment of a lock, and are deleted only all at once), which this
-- index answers without reading their rows.
CREATE INDEX seen_user_latest_idx ON practice.seen (user_id, last_shown_at DESC);
