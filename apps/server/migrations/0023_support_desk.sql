-- The support desk (issue 15 §2; spec §3 "Support ticket types", §7 "Support"): Dart's own tickets behind the
-- `ext/` calls, their conversation, their scanned attachments, and who answers them (Dart Support staff).
-- See apps/server/src/modules/support/README.md.
CREATE TABLE "support_staff" (
	"user_id" uuid PRIMARY KEY NOT NULL REFERENCES "users"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "support_tickets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigserial NOT NULL,
	"client_id" uuid NOT NULL REFERENCES "clients"("id"),
	"user_id" uuid NOT NULL REFERENCES "users"("id"),
	"ticket_type" text NOT NULL,
	"ticket_type_id" integer NOT NULL,
	"request_type" text,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"extras" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"staff_replies" integer DEFAULT 0 NOT NULL,
	"requester_seen_replies" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "support_tickets_type_check" CHECK ("ticket_type" IN ('query', 'issue', 'access', 'feedback')),
	CONSTRAINT "support_tickets_status_check" CHECK ("status" IN ('open', 'in_progress', 'waiting_on_customer', 'resolved', 'closed'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "support_tickets_number_key" ON "support_tickets" ("number");--> statement-breakpoint
CREATE INDEX "support_tickets_user_idx" ON "support_tickets" ("user_id", "updated_at");--> statement-breakpoint
CREATE INDEX "support_tickets_client_idx" ON "support_tickets" ("client_id", "updated_at");--> statement-breakpoint
CREATE INDEX "support_tickets_status_idx" ON "support_tickets" ("status", "updated_at");--> statement-breakpoint
CREATE TABLE "support_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ticket_id" uuid NOT NULL REFERENCES "support_tickets"("id"),
	"author_id" uuid NOT NULL REFERENCES "users"("id"),
	"is_staff" boolean NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "support_messages_ticket_idx" ON "support_messages" ("ticket_id", "created_at");--> statement-breakpoint
CREATE TABLE "support_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"uploader_id" uuid NOT NULL REFERENCES "users"("id"),
	"client_id" uuid NOT NULL REFERENCES "clients"("id"),
	"storage_key" text NOT NULL,
	"name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"ticket_id" uuid REFERENCES "support_tickets"("id"),
	"message_id" uuid REFERENCES "support_messages"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "support_attachments_ticket_idx" ON "support_attachments" ("ticket_id");
