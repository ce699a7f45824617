ALTER TABLE "chat_channels" ADD COLUMN "change_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "change_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "chat_messages_changes_idx" ON "chat_messages" USING btree ("channel_id","change_seq") WHERE "chat_messages"."change_seq" > 0;