-- The WhatsApp link (issue 16 §2): consent history per user (time and source), every message that crossed the
-- bridge (retained like chat messages: the app never deletes them), and the chat channels linked to WhatsApp with
-- the position their relay has reached. The producer's cursor is the row 'whatsapp' of event_cursors.
-- See apps/server/src/modules/whatsapp/README.md.
CREATE TABLE "whatsapp_consents" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"consented" boolean NOT NULL,
	"source" text NOT NULL,
	"source_ref" text,
	"at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "whatsapp_consents_source_check" CHECK ("whatsapp_consents"."source" IN ('registration', 'quote', 'profile'))
);--> statement-breakpoint
ALTER TABLE "whatsapp_consents" ADD CONSTRAINT "whatsapp_consents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "whatsapp_consents_user_at_idx" ON "whatsapp_consents" USING btree ("user_id","at","id");--> statement-breakpoint
CREATE TABLE "whatsapp_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"direction" text NOT NULL,
	"client_id" uuid,
	"user_id" uuid,
	"phone" text NOT NULL,
	"channel_id" uuid,
	"chat_message_id" uuid,
	"kind" text NOT NULL,
	"template" text,
	"body" text NOT NULL,
	"source_ref" text NOT NULL,
	"provider_message_id" text,
	"context_message_id" text,
	"status" text NOT NULL,
	"status_history" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"failure_reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "whatsapp_messages_direction_check" CHECK ("whatsapp_messages"."direction" IN ('outbound', 'inbound')),
	CONSTRAINT "whatsapp_messages_kind_check" CHECK ("whatsapp_messages"."kind" IN ('template', 'text'))
);--> statement-breakpoint
ALTER TABLE "whatsapp_messages" ADD CONSTRAINT "whatsapp_messages_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_messages" ADD CONSTRAINT "whatsapp_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_messages" ADD CONSTRAINT "whatsapp_messages_channel_id_chat_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."chat_channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapp_messages_source_key" ON "whatsapp_messages" USING btree ("direction","phone","source_ref");--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapp_messages_provider_key" ON "whatsapp_messages" USING btree ("provider_message_id");--> statement-breakpoint
CREATE INDEX "whatsapp_messages_client_created_idx" ON "whatsapp_messages" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE INDEX "whatsapp_messages_queued_idx" ON "whatsapp_messages" USING btree ("next_attempt_at") WHERE "whatsapp_messages"."status" = 'queued';--> statement-breakpoint
CREATE TABLE "whatsapp_channel_links" (
	"channel_id" uuid PRIMARY KEY NOT NULL,
	"relayed_position" bigint NOT NULL,
	"linked_by" uuid NOT NULL,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "whatsapp_channel_links" ADD CONSTRAINT "whatsapp_channel_links_channel_id_chat_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."chat_channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_channel_links" ADD CONSTRAINT "whatsapp_channel_links_linked_by_users_id_fk" FOREIGN KEY ("linked_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Consents given at registration before this table existed: their history starts with that registration.
INSERT INTO "whatsapp_consents" ("user_id", "consented", "source", "at") SELECT "id", true, 'registration', "created_at" FROM "users" WHERE "whatsapp_consent";--> statement-breakpoint
-- The producer starts at the present: quotes published before the link existed are history, not alerts.
INSERT INTO "event_cursors" ("name", "position") SELECT 'whatsapp', COALESCE(MAX("position"), 0) FROM "events" ON CONFLICT ("name") DO NOTHING;
