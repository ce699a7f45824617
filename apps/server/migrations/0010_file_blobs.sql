CREATE TABLE "file_blobs" (
	"sha256" text PRIMARY KEY NOT NULL,
	"size" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "file_blobs_size_check" CHECK ("file_blobs"."size" = octet_length("file_blobs"."bytes"))
);--> statement-breakpoint
ALTER TABLE "file_blobs" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;
