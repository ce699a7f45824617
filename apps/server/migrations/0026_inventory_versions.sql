-- Inventory speed (issue 14 "Speed"): each firm's book has a version, raised in the same transaction as every
-- change of its holdings, so a node may keep the firm's valued book in memory and know, with one key lookup,
-- whether it is still the book. See apps/server/src/modules/inventory/README.md "Speed".
CREATE TABLE "inventory_versions" (
	"client_id" uuid PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);--> statement-breakpoint
ALTER TABLE "inventory_versions" ADD CONSTRAINT "inventory_versions_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;
