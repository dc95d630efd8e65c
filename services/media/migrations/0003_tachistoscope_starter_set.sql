-- The starter set shipped with the service (starter-set/manifest.json): one row per picture ever
-- stored from it, kept when an administrator deletes the image (image_id becomes null), so the
-- seed at start stores each picture once and never brings a deleted one back.
CREATE TABLE media.tachistoscope_starter_set (
  slug text PRIMARY KEY,
  image_id uuid UNIQUE REFERENCES media.tachistoscope_images (id) ON DELETE SET NULL,
  seeded_at timestamptz NOT NULL DEFAULT now()
);
