-- A shipped word the CRV manual lists in more than one category (soft in First Feelings,
-- Textures and Dimensionals) is one concept: its first category stays on the concept, each
-- further one is a row here (data/memberships.csv).
CREATE TABLE descriptors.concept_categories (
  concept_id integer NOT NULL REFERENCES descriptors.concepts (id) ON DELETE CASCADE,
  category_id integer NOT NULL REFERENCES descriptors.categories (id) ON DELETE CASCADE,
  PRIMARY KEY (concept_id, category_id)
);
CREATE INDEX concept_categories_category_idx ON descriptors.concept_categories (category_id);
