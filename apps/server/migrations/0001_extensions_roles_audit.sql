-- Custom migration: what drizzle-kit does not emit.
-- pg_trgm backs bond search (issue 4); created here so every later migration may use it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
INSERT INTO roles (value, label) VALUES
  ('user', 'Basic'), ('clientdealer', 'Dealer'), ('clientviewer', 'Viewer'),
  ('complianceofficer', 'Compliance Officer'), ('clientopsadmin', 'OpsAdmin'), ('backoffice', 'Back Office')
ON CONFLICT (value) DO NOTHING;
--> statement-breakpoint
INSERT INTO permissions (code, label) VALUES
  ('inventory.has_inventory_access', 'Inventory page'),
  ('finstruments.has_security_data_access', 'View security data'),
  ('client.view_client', 'View partners'),
  ('client.can_trade', 'Trade access')
ON CONFLICT (code) DO NOTHING;
--> statement-breakpoint
-- The audit trail is append-only (RELIABILITY #36): UPDATE and DELETE are refused for every role.
CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
