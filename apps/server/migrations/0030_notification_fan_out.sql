-- Notifications fan out on read (issue 15 "Speed"; apps/server/src/modules/notifications/README.md): one row per source
-- event and audience (a firm's trading users when user_id is NULL, else that one user), per-user read marks in
-- notification_reads, the users of the audience who had the category's in-app channel off in hidden_for, and the
-- position of the row's own `notify.created` event in live_position (a socket counts unread up to its resume point).
-- Rows made before (one per user) stay as one-user notifications; their read_at moves to a read mark.
CREATE TABLE "notification_reads" (
	"user_id" uuid NOT NULL,
	"notification_id" uuid NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	CONSTRAINT "notification_reads_user_id_notification_id_pk" PRIMARY KEY("user_id","notification_id")
);--> statement-breakpoint
ALTER TABLE "notification_reads" ADD CONSTRAINT "notification_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_reads" ADD CONSTRAINT "notification_reads_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
INSERT INTO "notification_reads" ("user_id", "notification_id", "read_at")
	SELECT "user_id", "id", "read_at" FROM "notifications" WHERE "read_at" IS NOT NULL;--> statement-breakpoint
DROP INDEX "notifications_user_unread_idx";--> statement-breakpoint
DROP INDEX "notifications_user_source_key";--> statement-breakpoint
DROP INDEX "notifications_user_created_idx";--> statement-breakpoint
ALTER TABLE "notifications" DROP COLUMN "read_at";--> statement-breakpoint
ALTER TABLE "notifications" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "hidden_for" uuid[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "live_position" bigint;--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_source_audience_key" ON "notifications" USING btree ("source_ref","client_id",coalesce("user_id", '00000000-0000-0000-0000-000000000000'::uuid));--> statement-breakpoint
CREATE INDEX "notifications_firm_created_idx" ON "notifications" USING btree ("client_id","created_at") WHERE "notifications"."user_id" IS NULL;--> statement-breakpoint
CREATE INDEX "notifications_user_created_idx" ON "notifications" USING btree ("user_id","created_at") WHERE "notifications"."user_id" IS NOT NULL;
