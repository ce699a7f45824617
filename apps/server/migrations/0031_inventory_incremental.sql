-- Inventory speed, incremental (issue 14 "Speed"; apps/server/src/modules/inventory/README.md "Speed").
-- 1. Each holding carries the firm's book version of its last change, so a node holding the valued book reads
--    only the holdings changed since the version it holds (`version > held`).
ALTER TABLE "inventory_positions" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "inventory_positions_version_idx" ON "inventory_positions" ("client_id", "version");--> statement-breakpoint
-- 2. The valuation inputs' change log: every statement that writes a reference price (any writer: the bond import,
--    a close, a reported trade) or changes a bond's valued columns raises one version and lists the bonds it
--    touched under it. The version row is updated in the writer's transaction, so versions commit in order and a
--    reader that saw version V sees every change up to V. Only the last 1,000 versions are kept: a node further
--    behind values its books again from the start.
CREATE TABLE "valuation_input_versions" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL CHECK ("id" = 1),
	"version" bigint DEFAULT 0 NOT NULL
);--> statement-breakpoint
INSERT INTO "valuation_input_versions" ("id", "version") VALUES (1, 0);--> statement-breakpoint
CREATE TABLE "valuation_input_changes" (
	"version" bigint NOT NULL,
	"finstrument_id" integer NOT NULL,
	PRIMARY KEY ("version", "finstrument_id")
);--> statement-breakpoint
CREATE FUNCTION note_valuation_inputs(ids integer[]) RETURNS void AS $$
DECLARE
  next_version bigint;
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  UPDATE valuation_input_versions SET version = version + 1 WHERE id = 1 RETURNING version INTO next_version;
  INSERT INTO valuation_input_changes (version, finstrument_id) SELECT next_version, unnest(ids) ON CONFLICT DO NOTHING;
  DELETE FROM valuation_input_changes WHERE version <= next_version - 1000;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE FUNCTION reference_prices_changed() RETURNS trigger AS $$
DECLARE
  ids integer[];
BEGIN
  IF TG_OP = 'UPDATE' THEN
    SELECT array_agg(DISTINCT finstrument_id) INTO ids FROM (
      SELECT finstrument_id FROM changed_rows UNION SELECT finstrument_id FROM previous_rows
    ) touched;
  ELSE
    SELECT array_agg(DISTINCT finstrument_id) INTO ids FROM changed_rows;
  END IF;
  PERFORM note_valuation_inputs(ids);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER reference_prices_inserted AFTER INSERT ON reference_prices
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION reference_prices_changed();--> statement-breakpoint
CREATE TRIGGER reference_prices_updated AFTER UPDATE ON reference_prices
  REFERENCING OLD TABLE AS previous_rows NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION reference_prices_changed();--> statement-breakpoint
CREATE TRIGGER reference_prices_deleted AFTER DELETE ON reference_prices
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION reference_prices_changed();--> statement-breakpoint
-- A bond's columns that valuing a holding reads (inventory.repository.ts BOOK_BOND_COLUMNS): a change to any of
-- them re-values the bond's holdings; other columns (search text, timestamps) do not.
CREATE FUNCTION finstruments_valuation_changed() RETURNS trigger AS $$
DECLARE
  ids integer[];
BEGIN
  SELECT array_agg(DISTINCT n.id) INTO ids
  FROM changed_rows n JOIN previous_rows o ON o.id = n.id
  WHERE (n.isin, n.display_name, n.issuer_name, n.credit_rating, n.security_type, n.coupon_rate, n.coupon_frequency,
         n.face_value, n.issue_date, n.listing_date, n.maturity_date, n.perpetual, n.tenor_days, n.call_schedule::text,
         n.put_schedule::text, n.content_hash)
    IS DISTINCT FROM
        (o.isin, o.display_name, o.issuer_name, o.credit_rating, o.security_type, o.coupon_rate, o.coupon_frequency,
         o.face_value, o.issue_date, o.listing_date, o.maturity_date, o.perpetual, o.tenor_days, o.call_schedule::text,
         o.put_schedule::text, o.content_hash);
  PERFORM note_valuation_inputs(ids);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER finstruments_valuation_updated AFTER UPDATE ON finstruments
  REFERENCING OLD TABLE AS previous_rows NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION finstruments_valuation_changed();
