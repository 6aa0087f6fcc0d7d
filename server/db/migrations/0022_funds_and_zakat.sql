CREATE TABLE "zakat_attestations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campaign_id" uuid NOT NULL,
	"statement" text NOT NULL,
	"lang" "user_language" NOT NULL,
	"attested_by" uuid NOT NULL,
	"attested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"carried_over" boolean DEFAULT false NOT NULL,
	"withdrawn_by" uuid,
	"withdrawn_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "donation_tallies" ADD COLUMN "fund" "fund_kind" DEFAULT 'general' NOT NULL;--> statement-breakpoint
ALTER TABLE "donation_tallies" DROP CONSTRAINT "donation_tallies_ngo_id_campaign_id_kind_status_pickup_status_pk";--> statement-breakpoint
ALTER TABLE "donation_tallies" ADD CONSTRAINT "donation_tallies_ngo_id_campaign_id_kind_fund_status_pickup_status_pk" PRIMARY KEY("ngo_id","campaign_id","kind","fund","status","pickup_status");--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "accepted_funds" "fund_kind"[] DEFAULT '{general}'::fund_kind[] NOT NULL;--> statement-breakpoint
ALTER TABLE "zakat_attestations" ADD CONSTRAINT "zakat_attestations_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "zakat_attestations" ADD CONSTRAINT "zakat_attestations_attested_by_users_id_fk" FOREIGN KEY ("attested_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "zakat_attestations" ADD CONSTRAINT "zakat_attestations_withdrawn_by_users_id_fk" FOREIGN KEY ("withdrawn_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "zakat_attestations_current_unique" ON "zakat_attestations" USING btree ("campaign_id") WHERE "zakat_attestations"."withdrawn_at" is null;--> statement-breakpoint
CREATE INDEX "zakat_attestations_campaign_idx" ON "zakat_attestations" USING btree ("campaign_id","attested_at");--> statement-breakpoint
CREATE INDEX "zakat_attestations_attested_idx" ON "zakat_attestations" USING btree ("attested_at","id");--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_accepts_general" CHECK ('general' = any("campaigns"."accepted_funds"));--> statement-breakpoint
-- Hand-written from here to the end (decision 048).
-- The funds a campaign takes, carried over from the yes/no flag: every campaign takes general gifts, a Zakat-eligible
-- one Zakat too.
UPDATE "campaigns" SET "accepted_funds" = '{zakat,general}'::fund_kind[] WHERE "zakat_eligible";
--> statement-breakpoint
-- A campaign takes Zakat only with a current attestation: the flag was its owner's word (only the owner edits a
-- campaign), so the owner's account attests, as of the campaign's last change, marked as carried over, with the
-- English words of the attestation.
INSERT INTO "zakat_attestations" ("campaign_id", "statement", "lang", "attested_by", "attested_at", "carried_over")
SELECT c.id, 'We attest that gifts given as Zakat to this campaign will be spent only on those entitled to receive Zakat (the categories named in Surah At-Tawbah 9:60), kept apart from other funds, and that we will withdraw this attestation as soon as that stops being true.', 'en', c.owner_id, c.updated_at, true FROM "campaigns" c WHERE c.zakat_eligible;
--> statement-breakpoint
ALTER TABLE "campaigns" DROP COLUMN "zakat_eligible";
--> statement-breakpoint
-- The tallies keep each fund apart: the functions of 0020's triggers with the fund in the key.
CREATE OR REPLACE FUNCTION donation_tallies_of_donations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO donation_tallies AS t (ngo_id, campaign_id, kind, fund, status, pickup_status, n, amount)
    SELECT c.ngo_id, k.campaign_id, c.kind, c.fund, c.status, c.pickup_status, sum(c.n), sum(c.amount)
    FROM (
      SELECT d.recipient_ngo_id AS ngo_id, d.campaign_id, d.kind, d.fund, d.status, coalesce(p.status::text, '') AS pickup_status,
        1 AS n, coalesce(d.amount, 0) AS amount
      FROM new_rows d LEFT JOIN pickups p ON p.donation_id = d.id
    ) c
    CROSS JOIN LATERAL (VALUES (c.campaign_id), ('00000000-0000-0000-0000-000000000000'::uuid)) AS k (campaign_id)
    GROUP BY 1, 2, 3, 4, 5, 6
    HAVING sum(c.n) <> 0 OR sum(c.amount) <> 0
    ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (ngo_id, campaign_id, kind, fund, status, pickup_status)
    DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO donation_tallies AS t (ngo_id, campaign_id, kind, fund, status, pickup_status, n, amount)
    SELECT c.ngo_id, k.campaign_id, c.kind, c.fund, c.status, c.pickup_status, sum(c.n), sum(c.amount)
    FROM (
      SELECT d.recipient_ngo_id AS ngo_id, d.campaign_id, d.kind, d.fund, d.status, coalesce(p.status::text, '') AS pickup_status,
        -1 AS n, -coalesce(d.amount, 0) AS amount
      FROM old_rows d LEFT JOIN pickups p ON p.donation_id = d.id
    ) c
    CROSS JOIN LATERAL (VALUES (c.campaign_id), ('00000000-0000-0000-0000-000000000000'::uuid)) AS k (campaign_id)
    GROUP BY 1, 2, 3, 4, 5, 6
    HAVING sum(c.n) <> 0 OR sum(c.amount) <> 0
    ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (ngo_id, campaign_id, kind, fund, status, pickup_status)
    DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount;
  ELSE
    INSERT INTO donation_tallies AS t (ngo_id, campaign_id, kind, fund, status, pickup_status, n, amount)
    SELECT c.ngo_id, k.campaign_id, c.kind, c.fund, c.status, c.pickup_status, sum(c.n), sum(c.amount)
    FROM (
      SELECT d.recipient_ngo_id AS ngo_id, d.campaign_id, d.kind, d.fund, d.status, coalesce(p.status::text, '') AS pickup_status,
        -1 AS n, -coalesce(d.amount, 0) AS amount
      FROM old_rows d LEFT JOIN pickups p ON p.donation_id = d.id
     UNION ALL 
      SELECT d.recipient_ngo_id AS ngo_id, d.campaign_id, d.kind, d.fund, d.status, coalesce(p.status::text, '') AS pickup_status,
        1 AS n, coalesce(d.amount, 0) AS amount
      FROM new_rows d LEFT JOIN pickups p ON p.donation_id = d.id
    ) c
    CROSS JOIN LATERAL (VALUES (c.campaign_id), ('00000000-0000-0000-0000-000000000000'::uuid)) AS k (campaign_id)
    GROUP BY 1, 2, 3, 4, 5, 6
    HAVING sum(c.n) <> 0 OR sum(c.amount) <> 0
    ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (ngo_id, campaign_id, kind, fund, status, pickup_status)
    DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A pick-up's state is part of its donation's tally key: '' before the pick-up exists and after it is gone.
CREATE OR REPLACE FUNCTION donation_tallies_of_pickups() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO donation_tallies AS t (ngo_id, campaign_id, kind, fund, status, pickup_status, n, amount)
    SELECT c.ngo_id, k.campaign_id, c.kind, c.fund, c.status, c.pickup_status, sum(c.n), sum(c.amount)
    FROM (
      SELECT d.recipient_ngo_id AS ngo_id, d.campaign_id, d.kind, d.fund, d.status, x.pickup_status, x.n, x.n * coalesce(d.amount, 0) AS amount
      FROM (SELECT p.donation_id, p.status::text AS pickup_status, 1 AS n FROM new_rows p UNION ALL SELECT p.donation_id, '', -1 FROM new_rows p) x JOIN donations d ON d.id = x.donation_id
    ) c
    CROSS JOIN LATERAL (VALUES (c.campaign_id), ('00000000-0000-0000-0000-000000000000'::uuid)) AS k (campaign_id)
    GROUP BY 1, 2, 3, 4, 5, 6
    HAVING sum(c.n) <> 0 OR sum(c.amount) <> 0
    ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (ngo_id, campaign_id, kind, fund, status, pickup_status)
    DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO donation_tallies AS t (ngo_id, campaign_id, kind, fund, status, pickup_status, n, amount)
    SELECT c.ngo_id, k.campaign_id, c.kind, c.fund, c.status, c.pickup_status, sum(c.n), sum(c.amount)
    FROM (
      SELECT d.recipient_ngo_id AS ngo_id, d.campaign_id, d.kind, d.fund, d.status, x.pickup_status, x.n, x.n * coalesce(d.amount, 0) AS amount
      FROM (SELECT o.donation_id, o.status::text AS pickup_status, -1 AS n FROM old_rows o UNION ALL SELECT o.donation_id, '', 1 FROM old_rows o) x JOIN donations d ON d.id = x.donation_id
    ) c
    CROSS JOIN LATERAL (VALUES (c.campaign_id), ('00000000-0000-0000-0000-000000000000'::uuid)) AS k (campaign_id)
    GROUP BY 1, 2, 3, 4, 5, 6
    HAVING sum(c.n) <> 0 OR sum(c.amount) <> 0
    ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (ngo_id, campaign_id, kind, fund, status, pickup_status)
    DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount;
  ELSE
    INSERT INTO donation_tallies AS t (ngo_id, campaign_id, kind, fund, status, pickup_status, n, amount)
    SELECT c.ngo_id, k.campaign_id, c.kind, c.fund, c.status, c.pickup_status, sum(c.n), sum(c.amount)
    FROM (
      SELECT d.recipient_ngo_id AS ngo_id, d.campaign_id, d.kind, d.fund, d.status, x.pickup_status, x.n, x.n * coalesce(d.amount, 0) AS amount
      FROM (SELECT o.donation_id, o.status::text AS pickup_status, -1 AS n FROM old_rows o UNION ALL SELECT p.donation_id, p.status::text, 1 FROM new_rows p) x JOIN donations d ON d.id = x.donation_id
    ) c
    CROSS JOIN LATERAL (VALUES (c.campaign_id), ('00000000-0000-0000-0000-000000000000'::uuid)) AS k (campaign_id)
    GROUP BY 1, 2, 3, 4, 5, 6
    HAVING sum(c.n) <> 0 OR sum(c.amount) <> 0
    ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (ngo_id, campaign_id, kind, fund, status, pickup_status)
    DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
--> statement-breakpoint
-- The tallies counted afresh with their fund; the triggers hold both tables' writers off until this commits.
DELETE FROM "donation_tallies";
--> statement-breakpoint
INSERT INTO donation_tallies (ngo_id, campaign_id, kind, fund, status, pickup_status, n, amount)
SELECT c.ngo_id, k.campaign_id, c.kind, c.fund, c.status, c.pickup_status, sum(c.n), sum(c.amount)
FROM (
      SELECT d.recipient_ngo_id AS ngo_id, d.campaign_id, d.kind, d.fund, d.status, coalesce(p.status::text, '') AS pickup_status,
        1 AS n, coalesce(d.amount, 0) AS amount
      FROM donations d LEFT JOIN pickups p ON p.donation_id = d.id
    ) c
CROSS JOIN LATERAL (VALUES (c.campaign_id), ('00000000-0000-0000-0000-000000000000'::uuid)) AS k (campaign_id)
GROUP BY 1, 2, 3, 4, 5, 6;
