-- Readable audit trail (issue 12 fix 7): the surveillance page filters a firm's trail by user, so
-- the user's rows come newest first from this index instead of a scan of the whole firm's trail.
-- (The firm filter has audit_client_idx; the once-per-sign-in chat record looks up
-- audit_action_entity_idx.)
CREATE INDEX IF NOT EXISTS "audit_actor_user_idx" ON "audit_log" ("actor_user_id", "id");
