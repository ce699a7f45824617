-- Display preferences (issue 12 §5 fixes 5 and 11): the user's date format and whether toast sounds play.
ALTER TABLE "users" ADD COLUMN "date_format" text DEFAULT 'mm/dd/yy' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sounds_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_date_format_check" CHECK ("users"."date_format" IN ('mm/dd/yy', 'dd/mm/yy', 'DD-Mon-YYYY'));
