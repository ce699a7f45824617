-- The /dart docking workspace's saved layout (issue 12 §2), one per user, so it follows the user to another machine.
CREATE TABLE "workspace_layouts" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"layout" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_layouts_version_check" CHECK ("workspace_layouts"."version" > 0)
);--> statement-breakpoint
ALTER TABLE "workspace_layouts" ADD CONSTRAINT "workspace_layouts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
