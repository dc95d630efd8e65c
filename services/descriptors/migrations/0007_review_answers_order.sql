-- A replay reads a word's answers in the order they were given, ties by when they arrived and
-- then by id. This index holds that whole order (the one it replaces stopped at answered_at), so
-- the checkpoint before a late answer is one step back from where it goes, and a replay starts
-- reading there; PostgreSQL 15 sorted all of the word's earlier answers to find it.
CREATE INDEX review_answers_order_idx
  ON descriptors.review_answers (user_id, descriptor_id, answered_at, received_at, id);
DROP INDEX descriptors.review_answers_card_idx;
