-- Custom migration (not in schema.ts: drizzle cannot express INCLUDE). Two partial indexes for the
-- market's hot reads: a firm's own open quotes (my_quotes), and the public book that market depth
-- and the instruments-in-the-market list aggregate (open, public, not exchange RFQs).
CREATE INDEX IF NOT EXISTS "quotes_my_open_idx" ON "quotes" ("client_id", "created_at" DESC, "id" DESC) WHERE "status" = 'open';
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "quotes_public_depth_idx" ON "quotes" ("finstrument_id", "quote_type", "price") INCLUDE ("yield_fraction", "remaining_quantum", "expires_at", "created_at") WHERE "status" = 'open' AND "recipients" IS NULL AND "exchange" IS NULL;
