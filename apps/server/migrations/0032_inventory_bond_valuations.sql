-- Inventory speed, round 2 (issue 14 "Speed"; apps/server/src/modules/inventory/README.md "Speed"): each bond's
-- figures for one unit (clean price, duration, PV01 per ₹100, face per unit, accrued per ₹100, or why it cannot be
-- valued), stored with what they were computed from: the valuing code's method number, the bond's content hash,
-- the settlement date and the reference yield. A node valuing a book the first time reads them with its bonds and
-- uses a row only when all four still match (checked in the read's join), so a stale figure is never served;
-- anything else it prices itself. Written by the elected node after every change of valuation inputs and once a
-- day, and by any node for the bonds it had to price (inventory.repository.ts `storeValuations`).
CREATE TABLE "inventory_bond_valuations" (
	"finstrument_id" integer PRIMARY KEY NOT NULL REFERENCES "finstruments"("id"),
	"method" integer NOT NULL,
	"content_hash" text NOT NULL,
	"settlement_date" date NOT NULL,
	"reference_yield" double precision,
	"clean_price" double precision,
	"bond_yield" double precision,
	"modified_duration" double precision,
	"pv01_per_100" double precision,
	"face_value_per_unit" double precision,
	"accrued_per_100" double precision,
	"reason" text,
	"valued_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
-- Every change of a bond's valuation inputs (migration 0031's triggers: any writer of reference prices or of a
-- bond's valued columns) also drops its stored figures, in the writer's transaction: a term fixed by hand without a
-- new content hash cannot leave figures that still look current.
CREATE OR REPLACE FUNCTION note_valuation_inputs(ids integer[]) RETURNS void AS $$
DECLARE
  next_version bigint;
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  UPDATE valuation_input_versions SET version = version + 1 WHERE id = 1 RETURNING version INTO next_version;
  INSERT INTO valuation_input_changes (version, finstrument_id) SELECT next_version, unnest(ids) ON CONFLICT DO NOTHING;
  DELETE FROM valuation_input_changes WHERE version <= next_version - 1000;
  DELETE FROM inventory_bond_valuations WHERE finstrument_id = ANY(ids);
END;
$$ LANGUAGE plpgsql;
