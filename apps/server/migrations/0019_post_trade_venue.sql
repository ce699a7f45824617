-- Post-trade venue (issue 13): the simulated NSE / BSE trade reporting platform and the simulated clearing
-- corporations (NSCCL / ICCL), kept in the shared database like the RFQ book of migration 0012, so every node
-- talks to one venue (modules/exchange/simulated-reporting.ts, simulated-clearing.ts). Not Dart's data: the
-- ids Dart quotes (ticket, member firms) are plain text, without foreign keys.
-- One report per ticket and side: a repeated report (a retry after a lost answer, a second node) finds the
-- first one and gets its answer, so a trade is never reported twice; a report of a lower revision than the
-- one held (a late, stale copy) changes nothing. One settlement row per matched trade (and per ticket).
CREATE TABLE "exchange_sim_reports" (
	"ref" text PRIMARY KEY NOT NULL,
	"exchange" text NOT NULL,
	"ticket_id" text NOT NULL,
	"side" text NOT NULL,
	"member" text NOT NULL,
	"counterparty" text NOT NULL,
	"isin" text NOT NULL,
	"quantum" bigint NOT NULL,
	"price" double precision NOT NULL,
	"yield_fraction" double precision NOT NULL,
	"settlement_date" date NOT NULL,
	"accrued_days" integer NOT NULL,
	"principal_paise" bigint NOT NULL,
	"accrued_interest_paise" bigint NOT NULL,
	"consideration_paise" bigint NOT NULL,
	"stamp_duty_paise" bigint NOT NULL,
	"custodian" text,
	"status" text NOT NULL,
	"reason" text,
	"trade_id" text,
	"revision" integer NOT NULL,
	"submissions" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_sim_reports_side_check" CHECK ("side" IN ('buy', 'sell')),
	CONSTRAINT "exchange_sim_reports_status_check" CHECK ("status" IN ('pending', 'refused', 'matched', 'cancelled')),
	CONSTRAINT "exchange_sim_reports_revision_check" CHECK ("revision" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "exchange_sim_reports_ticket_side_key" ON "exchange_sim_reports" USING btree ("ticket_id","side");--> statement-breakpoint
CREATE TABLE "exchange_sim_settlements" (
	"trade_id" text PRIMARY KEY NOT NULL,
	"exchange" text NOT NULL,
	"clearing_corporation" text NOT NULL,
	"ticket_id" text NOT NULL,
	"isin" text NOT NULL,
	"quantum" bigint NOT NULL,
	"price" double precision NOT NULL,
	"settlement_date" date NOT NULL,
	"consideration_paise" bigint NOT NULL,
	"stamp_duty_paise" bigint NOT NULL,
	"buyer" text NOT NULL,
	"seller" text NOT NULL,
	"buyer_custodian" text,
	"seller_custodian" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"settle_after" timestamp with time zone NOT NULL,
	"payin_runs" integer DEFAULT 0 NOT NULL,
	"reported_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_sim_settlements_status_check" CHECK ("status" IN ('pending', 'settled', 'failed', 'cancelled')),
	CONSTRAINT "exchange_sim_settlements_clearing_check" CHECK ("clearing_corporation" IN ('NSCCL', 'ICCL'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "exchange_sim_settlements_ticket_key" ON "exchange_sim_settlements" USING btree ("ticket_id");
