-- A start draws from the pool's active targets (issue [24]: thousands of them). The service keeps
-- each pool's list between starts and reads it again only when a target changed: every statement
-- that writes practice.targets bumps this one version, in its own transaction, so a list read
-- together with the version (one statement, one snapshot) is exactly the list of that version.
CREATE TABLE practice.targets_version (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  version bigint NOT NULL
);
INSERT INTO practice.targets_version (version) VALUES (1);

CREATE FUNCTION practice.bump_targets_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE practice.targets_version SET version = version + 1;
  RETURN NULL;
END
$$;

CREATE TRIGGER targets_version_bump
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON practice.targets
FOR EACH STATEMENT EXECUTE FUNCTION practice.bump_targets_version();
