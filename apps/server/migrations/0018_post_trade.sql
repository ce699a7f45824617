-- Post-trade (issue 13): custodians, tickets with their history, orders and procurement orders.
-- See apps/server/src/modules/tickets/README.md and apps/server/src/modules/orders/README.md. Money in integer paise.
CREATE SEQUENCE IF NOT EXISTS "ticket_number_seq";--> statement-breakpoint
CREATE SEQUENCE IF NOT EXISTS "order_number_seq";--> statement-breakpoint
CREATE TABLE "custodians" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "custodians_name_unique" UNIQUE("name")
);--> statement-breakpoint
-- SEBI-registered custodians: reference-data/participants/custodians.csv (its SOURCE.md).
INSERT INTO "custodians" ("name") VALUES
  ('Axis Bank Ltd.'),
  ('BNP Paribas'),
  ('Citibank N.A.'),
  ('DBS Bank India Ltd.'),
  ('Deutsche Bank A.G.'),
  ('HDFC Bank Ltd.'),
  ('The Hongkong and Shanghai Banking Corporation Ltd.'),
  ('ICICI Bank Ltd.'),
  ('Infrastructure Leasing & Financial Services Ltd.'),
  ('JPMorgan Chase Bank N.A.'),
  ('Kotak Mahindra Bank Ltd.'),
  ('Nuvama Custodial Services Ltd.'),
  ('Orbis Financial Corporation Ltd.'),
  ('SBI-SG Global Securities Services Pvt. Ltd.'),
  ('Standard Chartered Bank'),
  ('Stock Holding Corporation of India Ltd.'),
  ('Yes Bank Ltd.')
ON CONFLICT ("name") DO NOTHING;--> statement-breakpoint
CREATE TABLE "tickets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigint DEFAULT nextval('ticket_number_seq') NOT NULL,
	"deal_id" uuid,
	"source" text NOT NULL,
	"state" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"finstrument_id" integer NOT NULL,
	"buyer_client_id" uuid NOT NULL,
	"buyer_user_id" uuid,
	"seller_client_id" uuid NOT NULL,
	"seller_user_id" uuid,
	"buyer_broker_client_id" uuid,
	"buyer_broker_user_id" uuid,
	"seller_broker_client_id" uuid,
	"seller_broker_user_id" uuid,
	"buyer_brokerage_paise" bigint,
	"seller_brokerage_paise" bigint,
	"created_by_client_id" uuid,
	"created_by_user_id" uuid,
	"price" double precision NOT NULL,
	"yield_fraction" double precision NOT NULL,
	"quantum" bigint NOT NULL,
	"settlement_date" date NOT NULL,
	"exchange" text NOT NULL,
	"clearing_corporation" text NOT NULL,
	"accrued_days" integer NOT NULL,
	"principal_paise" bigint NOT NULL,
	"accrued_interest_paise" bigint NOT NULL,
	"consideration_paise" bigint NOT NULL,
	"stamp_duty_paise" bigint NOT NULL,
	"price_confirmed_at" timestamp with time zone,
	"price_confirmed_by" uuid,
	"buyer_accepted_at" timestamp with time zone,
	"buyer_accepted_by" uuid,
	"buyer_custodian_id" uuid,
	"seller_accepted_at" timestamp with time zone,
	"seller_accepted_by" uuid,
	"seller_custodian_id" uuid,
	"confirmed_at" timestamp with time zone,
	"traded_at" timestamp with time zone NOT NULL,
	"report_alert" text,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tickets_version_check" CHECK ("tickets"."version" > 0)
);--> statement-breakpoint
CREATE TABLE "ticket_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"ticket_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"action" text NOT NULL,
	"from_state" text,
	"to_state" text NOT NULL,
	"actor_user_id" uuid,
	"actor_client_id" uuid,
	"changes" jsonb,
	"reason" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"number" bigint DEFAULT nextval('order_number_seq') NOT NULL,
	"ticket_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"user_id" uuid,
	"counterparty_client_id" uuid NOT NULL,
	"state" text NOT NULL,
	"reported_order_status" text,
	"version" integer DEFAULT 1 NOT NULL,
	"finstrument_id" integer NOT NULL,
	"exchange" text NOT NULL,
	"clearing_corporation" text NOT NULL,
	"price" double precision NOT NULL,
	"yield_fraction" double precision NOT NULL,
	"quantum" bigint NOT NULL,
	"settlement_date" date NOT NULL,
	"trade_date" date NOT NULL,
	"accrued_days" integer NOT NULL,
	"principal_paise" bigint NOT NULL,
	"accrued_interest_paise" bigint NOT NULL,
	"consideration_paise" bigint NOT NULL,
	"stamp_duty_paise" bigint NOT NULL,
	"custodian_id" uuid,
	"exchange_report_ref" text,
	"exchange_trade_id" text,
	"report_attempts" integer DEFAULT 0 NOT NULL,
	"next_report_at" timestamp with time zone,
	"last_error" text,
	"reason" text,
	"traded_at" timestamp with time zone NOT NULL,
	"reported_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_version_check" CHECK ("orders"."version" > 0)
);--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_finstrument_id_finstruments_id_fk" FOREIGN KEY ("finstrument_id") REFERENCES "public"."finstruments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_buyer_client_id_clients_id_fk" FOREIGN KEY ("buyer_client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_buyer_user_id_users_id_fk" FOREIGN KEY ("buyer_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_seller_client_id_clients_id_fk" FOREIGN KEY ("seller_client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_seller_user_id_users_id_fk" FOREIGN KEY ("seller_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_buyer_broker_client_id_clients_id_fk" FOREIGN KEY ("buyer_broker_client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_buyer_broker_user_id_users_id_fk" FOREIGN KEY ("buyer_broker_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_seller_broker_client_id_clients_id_fk" FOREIGN KEY ("seller_broker_client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_seller_broker_user_id_users_id_fk" FOREIGN KEY ("seller_broker_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_created_by_client_id_clients_id_fk" FOREIGN KEY ("created_by_client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_price_confirmed_by_users_id_fk" FOREIGN KEY ("price_confirmed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_buyer_accepted_by_users_id_fk" FOREIGN KEY ("buyer_accepted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_buyer_custodian_id_custodians_id_fk" FOREIGN KEY ("buyer_custodian_id") REFERENCES "public"."custodians"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_seller_accepted_by_users_id_fk" FOREIGN KEY ("seller_accepted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_seller_custodian_id_custodians_id_fk" FOREIGN KEY ("seller_custodian_id") REFERENCES "public"."custodians"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_events" ADD CONSTRAINT "ticket_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_events" ADD CONSTRAINT "ticket_events_actor_client_id_clients_id_fk" FOREIGN KEY ("actor_client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_counterparty_client_id_clients_id_fk" FOREIGN KEY ("counterparty_client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_finstrument_id_finstruments_id_fk" FOREIGN KEY ("finstrument_id") REFERENCES "public"."finstruments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_custodian_id_custodians_id_fk" FOREIGN KEY ("custodian_id") REFERENCES "public"."custodians"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_events" ADD CONSTRAINT "ticket_events_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_deal_key" ON "tickets" USING btree ("deal_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_number_key" ON "tickets" USING btree ("number");
--> statement-breakpoint
CREATE INDEX "tickets_buyer_idx" ON "tickets" USING btree ("buyer_client_id","updated_at");
--> statement-breakpoint
CREATE INDEX "tickets_seller_idx" ON "tickets" USING btree ("seller_client_id","updated_at");
--> statement-breakpoint
CREATE INDEX "tickets_buyer_broker_idx" ON "tickets" USING btree ("buyer_broker_client_id","updated_at");
--> statement-breakpoint
CREATE INDEX "tickets_seller_broker_idx" ON "tickets" USING btree ("seller_broker_client_id","updated_at");
--> statement-breakpoint
CREATE INDEX "tickets_state_idx" ON "tickets" USING btree ("state","traded_at");
--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_events_seq_key" ON "ticket_events" USING btree ("ticket_id","seq");
--> statement-breakpoint
CREATE UNIQUE INDEX "orders_ticket_kind_key" ON "orders" USING btree ("ticket_id","kind");
--> statement-breakpoint
CREATE UNIQUE INDEX "orders_number_key" ON "orders" USING btree ("kind","number");
--> statement-breakpoint
CREATE INDEX "orders_client_idx" ON "orders" USING btree ("client_id","created_at");
--> statement-breakpoint
CREATE INDEX "orders_client_state_idx" ON "orders" USING btree ("client_id","state","created_at");
--> statement-breakpoint
CREATE INDEX "orders_report_due_idx" ON "orders" USING btree ("state","next_report_at");
