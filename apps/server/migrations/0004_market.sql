CREATE TABLE "clusters" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"finstrument_id" integer NOT NULL,
	"bid_quote_id" uuid NOT NULL,
	"ask_quote_id" uuid NOT NULL,
	"bid_client_id" uuid NOT NULL,
	"ask_client_id" uuid NOT NULL,
	"price" double precision NOT NULL,
	"yield_fraction" double precision NOT NULL,
	"quantum" bigint NOT NULL,
	"settlement_date" date NOT NULL,
	"status" text DEFAULT 'proposed' NOT NULL,
	"bid_accepted_at" timestamp with time zone,
	"ask_accepted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"finstrument_id" integer NOT NULL,
	"buyer_client_id" uuid NOT NULL,
	"seller_client_id" uuid NOT NULL,
	"buyer_user_id" uuid,
	"seller_user_id" uuid,
	"bid_quote_id" uuid,
	"ask_quote_id" uuid,
	"cluster_id" uuid,
	"negotiation_id" uuid,
	"price" double precision NOT NULL,
	"yield_fraction" double precision NOT NULL,
	"quantum" bigint NOT NULL,
	"settlement_date" date NOT NULL,
	"consideration" double precision NOT NULL,
	"consideration_details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"user_id" uuid NOT NULL,
	"key" text NOT NULL,
	"route" text NOT NULL,
	"request_hash" text NOT NULL,
	"status_code" integer NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "negotiations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"quote_id" uuid NOT NULL,
	"quoter_client_id" uuid NOT NULL,
	"responder_client_id" uuid NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"history" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quotes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"user_account_id" uuid NOT NULL,
	"finstrument_id" integer NOT NULL,
	"quote_type" text NOT NULL,
	"quantum" bigint NOT NULL,
	"remaining_quantum" bigint NOT NULL,
	"price" double precision NOT NULL,
	"yield_fraction" double precision NOT NULL,
	"fixed_field" text NOT NULL,
	"yield_type" text NOT NULL,
	"price_overridden" boolean DEFAULT false NOT NULL,
	"settlement_date" date NOT NULL,
	"settlement_delta" integer,
	"validity_minutes" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"mandate_expires_at" timestamp with time zone,
	"source" text NOT NULL,
	"state" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"is_best" boolean DEFAULT false NOT NULL,
	"send_to_rfq" boolean DEFAULT false NOT NULL,
	"whatsapp_consent" boolean DEFAULT false NOT NULL,
	"replaces" uuid,
	"replaced_by" uuid,
	"respond_to" uuid,
	"recipients" uuid[],
	"broker_id" uuid,
	"clearing_corporation" text,
	"rfq_mode" text,
	"oto_participant_details" jsonb,
	"origin_trade" text,
	"end_client_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "clusters" ADD CONSTRAINT "clusters_finstrument_id_finstruments_id_fk" FOREIGN KEY ("finstrument_id") REFERENCES "public"."finstruments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clusters" ADD CONSTRAINT "clusters_bid_quote_id_quotes_id_fk" FOREIGN KEY ("bid_quote_id") REFERENCES "public"."quotes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clusters" ADD CONSTRAINT "clusters_ask_quote_id_quotes_id_fk" FOREIGN KEY ("ask_quote_id") REFERENCES "public"."quotes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clusters" ADD CONSTRAINT "clusters_bid_client_id_clients_id_fk" FOREIGN KEY ("bid_client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clusters" ADD CONSTRAINT "clusters_ask_client_id_clients_id_fk" FOREIGN KEY ("ask_client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_finstrument_id_finstruments_id_fk" FOREIGN KEY ("finstrument_id") REFERENCES "public"."finstruments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_buyer_client_id_clients_id_fk" FOREIGN KEY ("buyer_client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_seller_client_id_clients_id_fk" FOREIGN KEY ("seller_client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_buyer_user_id_users_id_fk" FOREIGN KEY ("buyer_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_seller_user_id_users_id_fk" FOREIGN KEY ("seller_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "negotiations" ADD CONSTRAINT "negotiations_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "negotiations" ADD CONSTRAINT "negotiations_quoter_client_id_clients_id_fk" FOREIGN KEY ("quoter_client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "negotiations" ADD CONSTRAINT "negotiations_responder_client_id_clients_id_fk" FOREIGN KEY ("responder_client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_user_account_id_user_accounts_id_fk" FOREIGN KEY ("user_account_id") REFERENCES "public"."user_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_finstrument_id_finstruments_id_fk" FOREIGN KEY ("finstrument_id") REFERENCES "public"."finstruments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "clusters_bid_idx" ON "clusters" USING btree ("bid_client_id","status");--> statement-breakpoint
CREATE INDEX "clusters_ask_idx" ON "clusters" USING btree ("ask_client_id","status");--> statement-breakpoint
CREATE INDEX "clusters_quotes_idx" ON "clusters" USING btree ("bid_quote_id","ask_quote_id");--> statement-breakpoint
CREATE INDEX "deals_buyer_idx" ON "deals" USING btree ("buyer_client_id","created_at");--> statement-breakpoint
CREATE INDEX "deals_seller_idx" ON "deals" USING btree ("seller_client_id","created_at");--> statement-breakpoint
CREATE INDEX "negotiations_quote_idx" ON "negotiations" USING btree ("quote_id");--> statement-breakpoint
CREATE INDEX "negotiations_responder_idx" ON "negotiations" USING btree ("responder_client_id");--> statement-breakpoint
CREATE INDEX "quotes_market_idx" ON "quotes" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "quotes_book_idx" ON "quotes" USING btree ("finstrument_id","quote_type","status","settlement_date");--> statement-breakpoint
CREATE INDEX "quotes_client_idx" ON "quotes" USING btree ("client_id","status","created_at");--> statement-breakpoint
CREATE INDEX "quotes_expiry_idx" ON "quotes" USING btree ("status","expires_at");