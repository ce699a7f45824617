CREATE TABLE "usage_quotas" (
	"scope" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"action" text NOT NULL,
	"day" date NOT NULL,
	"used" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_quotas_scope_subject_id_action_day_pk" PRIMARY KEY("scope","subject_id","action","day")
);
