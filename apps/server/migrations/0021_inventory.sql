-- Inventory (issue 14, "The book"): each firm's positions per bond and account at weighted-average cost, the
-- movements that changed them, and the firm's book date. See apps/server/src/modules/inventory/README.md.
-- Face values in whole rupees (as a quote's quantum); money in integer paise.
CREATE TABLE "inventory_books" (
	"client_id" uuid PRIMARY KEY NOT NULL,
	"book_date" date NOT NULL,
	"confirmed_at" timestamp with time zone,
	"confirmed_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "inventory_positions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"finstrument_id" integer NOT NULL,
	"account" text NOT NULL,
	"face_value" bigint NOT NULL,
	"cost_paise" bigint NOT NULL,
	"realised_pnl_paise" bigint DEFAULT 0 NOT NULL,
	"as_of" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inventory_positions_face_value_check" CHECK ("inventory_positions"."face_value" >= 0),
	CONSTRAINT "inventory_positions_cost_check" CHECK ("inventory_positions"."cost_paise" >= 0)
);--> statement-breakpoint
CREATE TABLE "inventory_movements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"position_id" uuid NOT NULL,
	"source" text NOT NULL,
	"side" text NOT NULL,
	"face_value" bigint NOT NULL,
	"price" double precision NOT NULL,
	"trade_date" date NOT NULL,
	"realised_pnl_paise" bigint DEFAULT 0 NOT NULL,
	"order_id" uuid,
	"counterparty" text,
	"reference" text,
	"user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inventory_movements_side_check" CHECK ("inventory_movements"."side" IN ('BUY', 'SELL')),
	CONSTRAINT "inventory_movements_face_value_check" CHECK ("inventory_movements"."face_value" > 0)
);--> statement-breakpoint
ALTER TABLE "inventory_books" ADD CONSTRAINT "inventory_books_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_books" ADD CONSTRAINT "inventory_books_confirmed_by_users_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_positions" ADD CONSTRAINT "inventory_positions_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_positions" ADD CONSTRAINT "inventory_positions_finstrument_id_finstruments_id_fk" FOREIGN KEY ("finstrument_id") REFERENCES "public"."finstruments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_movements" ADD CONSTRAINT "inventory_movements_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_movements" ADD CONSTRAINT "inventory_movements_position_id_inventory_positions_id_fk" FOREIGN KEY ("position_id") REFERENCES "public"."inventory_positions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_movements" ADD CONSTRAINT "inventory_movements_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inventory_positions_key" ON "inventory_positions" USING btree ("client_id","finstrument_id","account");--> statement-breakpoint
CREATE INDEX "inventory_movements_position_idx" ON "inventory_movements" USING btree ("position_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "inventory_movements_order_key" ON "inventory_movements" USING btree ("order_id");
