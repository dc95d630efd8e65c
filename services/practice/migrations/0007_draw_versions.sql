-- A start draws from its pool's active targets (issue [24]: thousands of them) and the viewer's
-- last showings of them (a thousand past sessions). The service keeps both between starts and
-- checks them by version; these are the versions.

-- Each pool's targets' version, bumped by every statement that writes its targets, in that
-- statement's transaction: a list read together with it (one statement, one snapshot) is
-- exactly the list of that version.
ALTER TABLE practice.pools ADD COLUMN targets_version bigint NOT NULL DEFAULT 1;

CREATE FUNCTION practice.bump_targets_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE practice.pools SET targets_version = targets_version + 1
    WHERE id IN (SELECT pool_id FROM new_targets);
  ELSIF TG_OP = 'UPDATE' THEN
    UPDATE practice.pools SET targets_version = targets_version + 1
    WHERE id IN (SELECT pool_id FROM new_targets UNION SELECT pool_id FROM old_targets);
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
