-- Deletes ask whether a session holds a target (sessions started before sets were committed).
CREATE INDEX sessions_target_idx ON practice.sessions (target_id);
