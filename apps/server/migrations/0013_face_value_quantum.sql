-- Issue 12 §1: the wire and stored `quantum` becomes FACE VALUE IN RUPEES (was: a number of bonds).
-- Every stored size is multiplied by its bond's face value per bond, the rule of
-- packages/contracts/src/face-value.ts faceValuePerBond: ₹100 for G-secs, SDLs, T-bills, STRIPS and FRBs,
-- else the bond's own face_value, else ₹100. A converted size past the 12-digit limit (spec §5) is cut to
-- the largest whole number of bonds within it (a size no real issue reaches: ₹1 lakh crore of one bond).
-- A face value in paise (a few partly redeemed NCDs) rounds the converted size to the rupee.
-- The migrator runs this once per tag in one transaction, so no row is converted twice.
-- Not converted: audit rows and the outbox (history, as written then), idempotency replies (kept 24 h),
-- and the text of chat messages (the compliance record); a chat private-run card's `quantum` is converted.
CREATE TEMP TABLE "face_value_per_bond" ("id" integer PRIMARY KEY, "isin" text NOT NULL, "per_bond" numeric NOT NULL) ON COMMIT DROP;
--> statement-breakpoint
INSERT INTO "face_value_per_bond" ("id", "isin", "per_bond")
SELECT "id", "isin",
       CASE WHEN "security_type" IN ('G-Sec', 'SDL', 'T-Bill', 'G-Sec STRIPS', 'G-Sec FRB') THEN 100
            WHEN "face_value" > 0 THEN "face_value"::numeric
            ELSE 100 END
  FROM "finstruments";
--> statement-breakpoint
CREATE INDEX ON "face_value_per_bond" ("isin");
--> statement-breakpoint
-- units × face value per bond, cut to the largest whole number of bonds within 12 digits.
CREATE OR REPLACE FUNCTION pg_temp.face_value_of(units numeric, per_bond numeric) RETURNS bigint
  LANGUAGE sql IMMUTABLE AS
  $$ SELECT LEAST(round(units * per_bond), round(floor(999999999999 / per_bond) * per_bond))::bigint $$;
--> statement-breakpoint
UPDATE "quotes" q
   SET "quantum" = pg_temp.face_value_of(q."quantum", f."per_bond"),
       "remaining_quantum" = pg_temp.face_value_of(q."remaining_quantum", f."per_bond")
  FROM "face_value_per_bond" f
 WHERE f."id" = q."finstrument_id";
--> statement-breakpoint
UPDATE "clusters" c
   SET "quantum" = pg_temp.face_value_of(c."quantum", f."per_bond")
  FROM "face_value_per_bond" f
 WHERE f."id" = c."finstrument_id";
--> statement-breakpoint
UPDATE "deals" d
   SET "quantum" = pg_temp.face_value_of(d."quantum", f."per_bond")
  FROM "face_value_per_bond" f
 WHERE f."id" = d."finstrument_id";
--> statement-breakpoint
-- A negotiation's history: every step's offered quantum.
UPDATE "negotiations" n
   SET "history" = (
         SELECT COALESCE(jsonb_agg(
                  CASE WHEN jsonb_typeof(step -> 'quantum') = 'number'
                       THEN jsonb_set(step, '{quantum}', to_jsonb(pg_temp.face_value_of((step ->> 'quantum')::numeric, f."per_bond")))
                       ELSE step END
                  ORDER BY ord), '[]'::jsonb)
           FROM jsonb_array_elements(n."history") WITH ORDINALITY AS steps(step, ord))
  FROM "quotes" q
  JOIN "face_value_per_bond" f ON f."id" = q."finstrument_id"
 WHERE q."id" = n."quote_id" AND jsonb_typeof(n."history") = 'array';
--> statement-breakpoint
-- The simulated venue's book (migration 0012) names bonds by ISIN; an unknown ISIN takes the ₹100 default.
UPDATE "exchange_sim_rfqs" r
   SET "quantum" = pg_temp.face_value_of(r."quantum", COALESCE((SELECT f."per_bond" FROM "face_value_per_bond" f WHERE f."isin" = r."isin" LIMIT 1), 100));
--> statement-breakpoint
UPDATE "exchange_sim_responses" s
   SET "quantum" = pg_temp.face_value_of(s."quantum", COALESCE(
         (SELECT f."per_bond" FROM "exchange_sim_rfqs" r JOIN "face_value_per_bond" f ON f."isin" = r."isin" WHERE r."ref" = s."rfq_ref" LIMIT 1),
         (SELECT f."per_bond" FROM "quotes" q JOIN "face_value_per_bond" f ON f."id" = q."finstrument_id" WHERE q."exchange_ref" = s."rfq_ref" LIMIT 1),
         100));
--> statement-breakpoint
UPDATE "exchange_sim_trades" t
   SET "quantum" = pg_temp.face_value_of(t."quantum", COALESCE((SELECT f."per_bond" FROM "face_value_per_bond" f WHERE f."isin" = t."isin" LIMIT 1), 100));
--> statement-breakpoint
-- A private run's card in a chat message (data.private_run, read back as sent).
UPDATE "chat_messages" m
   SET "data" = jsonb_set(m."data", '{private_run,quantum}',
         to_jsonb(pg_temp.face_value_of((m."data" #>> '{private_run,quantum}')::numeric, COALESCE(
           (SELECT f."per_bond" FROM "face_value_per_bond" f WHERE f."id" = (m."data" #>> '{private_run,finstrument_id}')::integer), 100))))
 WHERE jsonb_typeof(m."data" #> '{private_run,quantum}') = 'number'
   AND jsonb_typeof(m."data" #> '{private_run,finstrument_id}') = 'number';
--> statement-breakpoint
-- Temporary objects end with the session, not the transaction: drop the helper so the connection is left as found.
DROP FUNCTION pg_temp.face_value_of(numeric, numeric);
