CREATE TABLE "exchange_trades" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"deal_id" uuid NOT NULL,
	"exchange" text NOT NULL,
	"clearing_corporation" text NOT NULL,
	"exchange_trade_id" text,
	"report_status" text DEFAULT 'pending' NOT NULL,
	"settlement_status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "exchange" text;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "exchange_ref" text;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "rfq_anonymous" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "exchange_trades" ADD CONSTRAINT "exchange_trades_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "exchange_trades_deal_key" ON "exchange_trades" USING btree ("deal_id");--> statement-breakpoint
CREATE INDEX "exchange_trades_status_idx" ON "exchange_trades" USING btree ("report_status","settlement_status");--> statement-breakpoint
CREATE INDEX "quotes_rfq_idx" ON "quotes" USING btree ("exchange","status","created_at");