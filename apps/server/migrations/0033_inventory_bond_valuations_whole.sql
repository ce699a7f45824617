-- Inventory speed, round 5 (issue 14 "Speed"; apps/server/src/modules/inventory/README.md "Speed"): a stored bond
-- figure row carries everything a book valued from the start reads of its bond (what a holding shows of the bond and
-- of its reference pick), so that read is one index lookup per bond instead of three (the bond, its reference pick
-- and the figures). A row is valid by construction, not by a check against the bond and the pick at read time:
-- - every change of a bond's valuation inputs deletes it in the writer's transaction (migrations 0031, 0032), and
--   the columns below are all inputs the finstruments trigger already watches (or the reference pick);
-- - a store takes the valuation inputs' version row FOR SHARE before it writes (inventory.repository.ts
--   `storeValuations`): a writer in flight commits first and the store sees its change logged and leaves the bond out;
--   a writer that comes after waits for the store, then deletes what it stored.
-- The rows stored so far lack the new columns: they are a cache, dropped here and priced again by the next valuation.
DELETE FROM "inventory_bond_valuations";--> statement-breakpoint
ALTER TABLE "inventory_bond_valuations"
  ADD COLUMN "isin" text NOT NULL,
  ADD COLUMN "display_name" text NOT NULL,
  ADD COLUMN "issuer_name" text,
  ADD COLUMN "credit_rating" text,
  ADD COLUMN "security_type" text NOT NULL,
  ADD COLUMN "face_value" double precision,
  ADD COLUMN "maturity_date" date,
  ADD COLUMN "perpetual" boolean NOT NULL,
  ADD COLUMN "reference_id" integer,
  ADD COLUMN "reference_price_date" date,
  ADD COLUMN "reference_source" text;
