-- Audit seals (issue 13 speed): the audit trail stays append-only and tamper-evident, but a write no longer
-- takes one global lock to chain its row to the previous one (that lock serialised every audited write of
-- every node). A new row carries the hash of its own content and the transaction id that wrote it; a sealer
-- (lib/audit.ts `sealAudit`, on the elected node about once a second) appends one seal per batch of finished
-- transactions: the SHA-256 of the previous seal and of every row of the batch in id order. Rows written before
-- this migration keep their per-row chain (`prev_hash`); the first seal starts from the last of them.
ALTER TABLE "audit_log" ALTER COLUMN "prev_hash" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "xid" bigint DEFAULT txid_current();
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "audit_xid_idx" ON "audit_log" ("xid", "id");
--> statement-breakpoint
-- One seal covers every row written by a transaction with from_xid <= xid < to_xid (to_xid: the oldest
-- transaction still running when it was taken, so all of them had finished): the ranges follow each other.
CREATE TABLE "audit_seals" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "sealed_at" timestamp with time zone DEFAULT now() NOT NULL,
  "from_xid" bigint NOT NULL,
  "to_xid" bigint NOT NULL,
  "row_count" integer NOT NULL,
  "first_id" bigint NOT NULL,
  "last_id" bigint NOT NULL,
  "prev_hash" text NOT NULL,
  "hash" text NOT NULL
);
--> statement-breakpoint
CREATE TRIGGER audit_seals_no_update BEFORE UPDATE OR DELETE ON audit_seals
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_seals_no_truncate BEFORE TRUNCATE ON audit_seals
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
