-- Exchange credentials (issue 14): a firm's login at NSCCL (NSE RFQ) and ICCL (BSE RFQ), one row per firm and
-- clearing corporation. The password is never stored in clear: `password_sealed` is AES-256-GCM under a
-- per-record data key, `data_key_wrapped` is that data key sealed under CREDENTIALS_KEY (`key_id` names the key),
-- see apps/server/src/modules/credentials/README.md. clients.nsccl_credentials_ref / iccl_credentials_ref hold
-- the row's id.
CREATE TABLE "exchange_credentials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"corp" text NOT NULL,
	"participant_code" text NOT NULL,
	"participant_name" text NOT NULL,
	"username" text NOT NULL,
	"password_sealed" text NOT NULL,
	"data_key_wrapped" text NOT NULL,
	"key_id" text NOT NULL,
	"set_by_user_id" uuid,
	"set_by_name" text NOT NULL,
	"set_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_credentials_corp_check" CHECK ("corp" IN ('NSCCL', 'ICCL'))
);
--> statement-breakpoint
ALTER TABLE "exchange_credentials" ADD CONSTRAINT "exchange_credentials_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "exchange_credentials" ADD CONSTRAINT "exchange_credentials_set_by_user_id_users_id_fk" FOREIGN KEY ("set_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "exchange_credentials_client_corp_key" ON "exchange_credentials" USING btree ("client_id","corp");
