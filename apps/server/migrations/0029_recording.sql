-- Masked session recording (issue 16 §3): one row per recorded browser session of a signed-in user, and its batches
-- of rrweb events (already masked in the browser). Chunks go with their session (ON DELETE CASCADE) when retention
-- purges it. See apps/server/src/modules/recording/README.md.
CREATE TABLE "recording_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"auth_session_id" uuid,
	"user_agent" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_event_at" timestamp with time zone,
	"chunk_count" integer DEFAULT 0 NOT NULL,
	"event_count" integer DEFAULT 0 NOT NULL,
	"bytes" integer DEFAULT 0 NOT NULL
);--> statement-breakpoint
ALTER TABLE "recording_sessions" ADD CONSTRAINT "recording_sessions_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recording_sessions" ADD CONSTRAINT "recording_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recording_sessions_client_started_idx" ON "recording_sessions" USING btree ("client_id","started_at");--> statement-breakpoint
CREATE INDEX "recording_sessions_started_idx" ON "recording_sessions" USING btree ("started_at");--> statement-breakpoint
CREATE TABLE "recording_chunks" (
	"session_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"events" jsonb NOT NULL,
	"event_count" integer NOT NULL,
	"bytes" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recording_chunks_session_id_seq_pk" PRIMARY KEY("session_id","seq")
);--> statement-breakpoint
ALTER TABLE "recording_chunks" ADD CONSTRAINT "recording_chunks_session_id_recording_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."recording_sessions"("id") ON DELETE cascade ON UPDATE no action;
