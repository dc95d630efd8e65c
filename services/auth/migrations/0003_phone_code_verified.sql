-- When a code signed someone in: sends limits count only what came after (an attacker never
-- verifies, so their sends keep counting).
ALTER TABLE auth.phone_codes ADD COLUMN verified_at timestamptz;
