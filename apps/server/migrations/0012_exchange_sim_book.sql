-- The SimulatedExchange's venue book in the shared database (modules/exchange/simulated-exchange.ts):
-- RFQs, responses/counters and reported trades, numbered from one sequence, so every node sees one venue
-- (distinct refs, cancel/respond from any node, settlement status that survives a leader change).
CREATE SEQUENCE IF NOT EXISTS "exchange_sim_seq";--> statement-breakpoint
CREATE TABLE "exchange_sim_rfqs" (
	"ref" text PRIMARY KEY NOT NULL,
	"exchange" text NOT NULL,
	"mode" text NOT NULL,
	"anonymous" boolean NOT NULL,
	"isin" text NOT NULL,
	"side" text NOT NULL,
	"quantum" bigint NOT NULL,
	"price" double precision NOT NULL,
	"yield_fraction" double precision NOT NULL,
	"settlement_date" date NOT NULL,
	"valid_until" timestamp with time zone NOT NULL,
	"counterparty" text,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_sim_rfqs_status_check" CHECK ("status" IN ('open', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "exchange_sim_responses" (
	"ref" text PRIMARY KEY NOT NULL,
	"rfq_ref" text NOT NULL,
	"exchange" text NOT NULL,
	"price" double precision NOT NULL,
	"yield_fraction" double precision NOT NULL,
	"quantum" bigint NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "exchange_sim_responses_status_check" CHECK ("status" IN ('open', 'withdrawn'))
);
--> statement-breakpoint
CREATE TABLE "exchange_sim_trades" (
	"trade_id" text PRIMARY KEY NOT NULL,
	"exchange" text NOT NULL,
	"deal_id" text NOT NULL,
	"rfq_ref" text,
	"isin" text NOT NULL,
	"price" double precision NOT NULL,
	"yield_fraction" double precision NOT NULL,
	"quantum" bigint NOT NULL,
	"settlement_date" date NOT NULL,
	"consideration" double precision NOT NULL,
	"reported_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "exchange_sim_rfqs_status_idx" ON "exchange_sim_rfqs" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "exchange_sim_responses_rfq_idx" ON "exchange_sim_responses" USING btree ("rfq_ref");--> statement-breakpoint
CREATE UNIQUE INDEX "exchange_sim_trades_deal_key" ON "exchange_sim_trades" USING btree ("deal_id");--> statement-breakpoint
-- The exchange job looks for recent exchange-RFQ deals that no node recorded (exchange.service.ts).
CREATE INDEX IF NOT EXISTS "deals_created_idx" ON "deals" USING btree ("created_at");
