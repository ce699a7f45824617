-- Trigram indexes for the bond search and the Find page filters (pg_trgm comes from migration 0001).
CREATE INDEX IF NOT EXISTS finstruments_search_trgm_idx ON finstruments USING gin (search_text gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS finstruments_display_name_trgm_idx ON finstruments USING gin (lower(display_name) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS finstruments_isin_prefix_idx ON finstruments (isin text_pattern_ops);
