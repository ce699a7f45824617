CREATE TABLE "finstrument_ratings" (
	"id" serial PRIMARY KEY NOT NULL,
	"finstrument_id" integer NOT NULL,
	"agency" text NOT NULL,
	"rating" text NOT NULL,
	"as_of" date,
	"source" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "finstrument_trades" (
	"id" serial PRIMARY KEY NOT NULL,
	"finstrument_id" integer NOT NULL,
	"trade_date" date NOT NULL,
	"kind" text NOT NULL,
	"price_per_100" double precision,
	"yield_fraction" double precision,
	"value_inr" double precision,
	"num_trades" integer,
	"detail" text,
	"source" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "finstruments" (
	"id" serial PRIMARY KEY NOT NULL,
	"isin" text NOT NULL,
	"display_name" text NOT NULL,
	"long_name" text,
	"issuer_key" text,
	"issuer_name" text,
	"security_type" text NOT NULL,
	"coupon_rate" double precision,
	"coupon_frequency" integer,
	"day_count" text,
	"face_value" double precision,
	"paid_up_value" double precision,
	"issue_date" date,
	"listing_date" date,
	"maturity_date" date,
	"maturity_year" integer,
	"perpetual" boolean DEFAULT false NOT NULL,
	"tenor_days" integer,
	"call_schedule" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"put_schedule" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"is_listed" boolean DEFAULT false NOT NULL,
	"exchanges" text[] DEFAULT ARRAY[]::text[] NOT NULL,
	"nse_symbol" text,
	"nse_series" text,
	"bse_scrip_code" text,
	"bse_symbol" text,
	"isin_status" text,
	"credit_rating" text,
	"rating_agency" text,
	"rating_as_of" date,
	"provenance" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"assumed" text[] DEFAULT ARRAY[]::text[] NOT NULL,
	"search_text" text NOT NULL,
	"liquidity" double precision DEFAULT 0 NOT NULL,
	"reference_yield" double precision,
	"reference_source" text,
	"content_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "issuers" (
	"key" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"security_types" text,
	"most_common_rating" text,
	"content_hash" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reference_prices" (
	"id" serial PRIMARY KEY NOT NULL,
	"finstrument_id" integer NOT NULL,
	"price_date" date NOT NULL,
	"clean_price" double precision,
	"yield_fraction" double precision NOT NULL,
	"source" text NOT NULL,
	"priority" integer NOT NULL,
	"detail" text
);
--> statement-breakpoint
ALTER TABLE "finstrument_ratings" ADD CONSTRAINT "finstrument_ratings_finstrument_id_finstruments_id_fk" FOREIGN KEY ("finstrument_id") REFERENCES "public"."finstruments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finstrument_trades" ADD CONSTRAINT "finstrument_trades_finstrument_id_finstruments_id_fk" FOREIGN KEY ("finstrument_id") REFERENCES "public"."finstruments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finstruments" ADD CONSTRAINT "finstruments_issuer_key_issuers_key_fk" FOREIGN KEY ("issuer_key") REFERENCES "public"."issuers"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reference_prices" ADD CONSTRAINT "reference_prices_finstrument_id_finstruments_id_fk" FOREIGN KEY ("finstrument_id") REFERENCES "public"."finstruments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "finstrument_ratings_key" ON "finstrument_ratings" USING btree ("finstrument_id","agency","rating","source");--> statement-breakpoint
CREATE UNIQUE INDEX "finstrument_trades_key" ON "finstrument_trades" USING btree ("finstrument_id","trade_date","kind","detail");--> statement-breakpoint
CREATE UNIQUE INDEX "finstruments_isin_key" ON "finstruments" USING btree ("isin");--> statement-breakpoint
CREATE INDEX "finstruments_issuer_idx" ON "finstruments" USING btree ("issuer_key","maturity_date");--> statement-breakpoint
CREATE INDEX "finstruments_maturity_idx" ON "finstruments" USING btree ("maturity_date");--> statement-breakpoint
CREATE INDEX "finstruments_type_idx" ON "finstruments" USING btree ("security_type","maturity_date");--> statement-breakpoint
CREATE UNIQUE INDEX "reference_prices_key" ON "reference_prices" USING btree ("finstrument_id","source","price_date");--> statement-breakpoint
CREATE INDEX "reference_prices_pick_idx" ON "reference_prices" USING btree ("finstrument_id","priority","price_date");