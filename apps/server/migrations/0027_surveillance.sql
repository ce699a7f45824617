-- Surveillance alerts (issue 16 §1): alerts per compliance officer's firm (unique on firm + dedupe key, so a rescan never
-- duplicates), their triage history, and the scanner's durable keyset watermarks (one per source table).
-- See apps/server/src/modules/surveillance/README.md.
CREATE TABLE "surveillance_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"score" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"assignee_user_id" uuid,
	"title" text NOT NULL,
	"summary" text NOT NULL,
	"evidence" jsonb NOT NULL,
	"dedupe_key" text NOT NULL,
	"group_key" text,
	"occurred_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "surveillance_alerts_score_check" CHECK ("surveillance_alerts"."score" BETWEEN 0 AND 100),
	CONSTRAINT "surveillance_alerts_status_check" CHECK ("surveillance_alerts"."status" IN ('open', 'assigned', 'escalated', 'closed'))
);--> statement-breakpoint
ALTER TABLE "surveillance_alerts" ADD CONSTRAINT "surveillance_alerts_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "surveillance_alerts" ADD CONSTRAINT "surveillance_alerts_assignee_user_id_users_id_fk" FOREIGN KEY ("assignee_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "surveillance_alerts_dedupe_key" ON "surveillance_alerts" USING btree ("client_id","dedupe_key");--> statement-breakpoint
CREATE INDEX "surveillance_alerts_client_created_idx" ON "surveillance_alerts" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE INDEX "surveillance_alerts_group_idx" ON "surveillance_alerts" USING btree ("client_id","group_key");--> statement-breakpoint
CREATE TABLE "surveillance_alert_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"alert_id" uuid NOT NULL,
	"action" text NOT NULL,
	"actor_user_id" uuid NOT NULL,
	"assignee_user_id" uuid,
	"comment" text,
	"from_status" text NOT NULL,
	"to_status" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "surveillance_alert_events" ADD CONSTRAINT "surveillance_alert_events_alert_id_surveillance_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."surveillance_alerts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "surveillance_alert_events" ADD CONSTRAINT "surveillance_alert_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "surveillance_alert_events_alert_idx" ON "surveillance_alert_events" USING btree ("alert_id","id");
--> statement-breakpoint
CREATE TABLE "surveillance_cursors" (
	"name" text PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"last_id" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
-- The scanner's keyset reads (created / updated after its watermark) on the tables it tails.
CREATE INDEX "surveillance_chat_messages_created_idx" ON "chat_messages" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "surveillance_quotes_updated_idx" ON "quotes" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "surveillance_tickets_updated_idx" ON "tickets" USING btree ("updated_at");
--> statement-breakpoint
-- The scanner's set-based look-ups (bench/surveillance): wash trades (a deal's reverse: same bond, buyer and seller
-- swapped, within a day) and the audit rows about an alert's evidence (by entity id, whatever the action).
CREATE INDEX "surveillance_deals_reverse_idx" ON "deals" USING btree ("finstrument_id","buyer_client_id","created_at");--> statement-breakpoint
CREATE INDEX "surveillance_audit_entity_idx" ON "audit_log" USING btree ("entity_id");
