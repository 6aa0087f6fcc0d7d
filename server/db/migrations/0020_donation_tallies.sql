CREATE TABLE "donation_tallies" (
	"ngo_id" uuid NOT NULL,
	"campaign_id" uuid NOT NULL,
	"kind" "donation_kind" NOT NULL,
	"status" "donation_status" NOT NULL,
	"pickup_status" text NOT NULL,
	"n" bigint NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "donation_tallies_ngo_id_campaign_id_kind_status_pickup_status_pk" PRIMARY KEY("ngo_id","campaign_id","kind","status","pickup_status")
);
--> statement-breakpoint
-- The tallies change in the statement that changes a donation or its pick-up (decision 044): statement triggers with
-- transition tables, so a bulk change costs one grouped upsert. Each change counts twice: in its campaign's row and in
-- the NGO's row for all its campaigns (campaign_id '00000000-0000-0000-0000-000000000000'), which the unfiltered totals read. The
-- upserts go in key order, so two transactions that move gifts between the same states take the rows' locks in the
-- same order.
CREATE FUNCTION donation_tallies_of_donations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO donation_tallies AS t (ngo_id, campaign_id, kind, status, pickup_status, n, amount)
    SELECT c.ngo_id, k.campaign_id, c.kind, c.status, c.pickup_status, sum(c.n), sum(c.amount)
    FROM (
      SELECT d.recipient_ngo_id AS ngo_id, d.campaign_id, d.kind, d.status, coalesce(p.status::text, '') AS pickup_status,
        1 AS n, coalesce(d.amount, 0) AS amount
      FROM new_rows d LEFT JOIN pickups p ON p.donation_id = d.id
    ) c
    CROSS JOIN LATERAL (VALUES (c.campaign_id), ('00000000-0000-0000-0000-000000000000'::uuid)) AS k (campaign_id)
    GROUP BY 1, 2, 3, 4, 5
    HAVING sum(c.n) <> 0 OR sum(c.amount) <> 0
    ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (ngo_id, campaign_id, kind, status, pickup_status)
    DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO donation_tallies AS t (ngo_id, campaign_id, kind, status, pickup_status, n, amount)
    SELECT c.ngo_id, k.campaign_id, c.kind, c.status, c.pickup_status, sum(c.n), sum(c.amount)
    FROM (
      SELECT d.recipient_ngo_id AS ngo_id, d.campaign_id, d.kind, d.status, coalesce(p.status::text, '') AS pickup_status,
        -1 AS n, -coalesce(d.amount, 0) AS amount
      FROM old_rows d LEFT JOIN pickups p ON p.donation_id = d.id
    ) c
    CROSS JOIN LATERAL (VALUES (c.campaign_id), ('00000000-0000-0000-0000-000000000000'::uuid)) AS k (campaign_id)
    GROUP BY 1, 2, 3, 4, 5
    HAVING sum(c.n) <> 0 OR sum(c.amount) <> 0
    ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (ngo_id, campaign_id, kind, status, pickup_status)
    DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount;
  ELSE
    INSERT INTO donation_tallies AS t (ngo_id, campaign_id, kind, status, pickup_status, n, amount)
    SELECT c.ngo_id, k.campaign_id, c.kind, c.status, c.pickup_status, sum(c.n), sum(c.amount)
    FROM (
      SELECT d.recipient_ngo_id AS ngo_id, d.campaign_id, d.kind, d.status, coalesce(p.status::text, '') AS pickup_status,
        -1 AS n, -coalesce(d.amount, 0) AS amount
      FROM old_rows d LEFT JOIN pickups p ON p.donation_id = d.id
     UNION ALL 
      SELECT d.recipient_ngo_id AS ngo_id, d.campaign_id, d.kind, d.status, coalesce(p.status::text, '') AS pickup_status,
        1 AS n, coalesce(d.amount, 0) AS amount
      FROM new_rows d LEFT JOIN pickups p ON p.donation_id = d.id
    ) c
    CROSS JOIN LATERAL (VALUES (c.campaign_id), ('00000000-0000-0000-0000-000000000000'::uuid)) AS k (campaign_id)
    GROUP BY 1, 2, 3, 4, 5
    HAVING sum(c.n) <> 0 OR sum(c.amount) <> 0
    ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (ngo_id, campaign_id, kind, status, pickup_status)
    DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A pick-up's state is part of its donation's tally key: '' before the pick-up exists and after it is gone.
CREATE FUNCTION donation_tallies_of_pickups() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO donation_tallies AS t (ngo_id, campaign_id, kind, status, pickup_status, n, amount)
    SELECT c.ngo_id, k.campaign_id, c.kind, c.status, c.pickup_status, sum(c.n), sum(c.amount)
    FROM (
      SELECT d.recipient_ngo_id AS ngo_id, d.campaign_id, d.kind, d.status, x.pickup_status, x.n, x.n * coalesce(d.amount, 0) AS amount
      FROM (SELECT p.donation_id, p.status::text AS pickup_status, 1 AS n FROM new_rows p UNION ALL SELECT p.donation_id, '', -1 FROM new_rows p) x JOIN donations d ON d.id = x.donation_id
    ) c
    CROSS JOIN LATERAL (VALUES (c.campaign_id), ('00000000-0000-0000-0000-000000000000'::uuid)) AS k (campaign_id)
    GROUP BY 1, 2, 3, 4, 5
    HAVING sum(c.n) <> 0 OR sum(c.amount) <> 0
    ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (ngo_id, campaign_id, kind, status, pickup_status)
    DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO donation_tallies AS t (ngo_id, campaign_id, kind, status, pickup_status, n, amount)
    SELECT c.ngo_id, k.campaign_id, c.kind, c.status, c.pickup_status, sum(c.n), sum(c.amount)
    FROM (
      SELECT d.recipient_ngo_id AS ngo_id, d.campaign_id, d.kind, d.status, x.pickup_status, x.n, x.n * coalesce(d.amount, 0) AS amount
      FROM (SELECT o.donation_id, o.status::text AS pickup_status, -1 AS n FROM old_rows o UNION ALL SELECT o.donation_id, '', 1 FROM old_rows o) x JOIN donations d ON d.id = x.donation_id
    ) c
    CROSS JOIN LATERAL (VALUES (c.campaign_id), ('00000000-0000-0000-0000-000000000000'::uuid)) AS k (campaign_id)
    GROUP BY 1, 2, 3, 4, 5
    HAVING sum(c.n) <> 0 OR sum(c.amount) <> 0
    ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (ngo_id, campaign_id, kind, status, pickup_status)
    DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount;
  ELSE
    INSERT INTO donation_tallies AS t (ngo_id, campaign_id, kind, status, pickup_status, n, amount)
    SELECT c.ngo_id, k.campaign_id, c.kind, c.status, c.pickup_status, sum(c.n), sum(c.amount)
    FROM (
      SELECT d.recipient_ngo_id AS ngo_id, d.campaign_id, d.kind, d.status, x.pickup_status, x.n, x.n * coalesce(d.amount, 0) AS amount
      FROM (SELECT o.donation_id, o.status::text AS pickup_status, -1 AS n FROM old_rows o UNION ALL SELECT p.donation_id, p.status::text, 1 FROM new_rows p) x JOIN donations d ON d.id = x.donation_id
    ) c
    CROSS JOIN LATERAL (VALUES (c.campaign_id), ('00000000-0000-0000-0000-000000000000'::uuid)) AS k (campaign_id)
    GROUP BY 1, 2, 3, 4, 5
    HAVING sum(c.n) <> 0 OR sum(c.amount) <> 0
    ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (ngo_id, campaign_id, kind, status, pickup_status)
    DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A donation's pick-up goes first when the donation is deleted (a cascade would run after the donation's trigger,
-- which would then count it without its pick-up's state).
CREATE FUNCTION donation_tallies_drop_pickup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM pickups WHERE donation_id = OLD.id;
  RETURN OLD;
END
$$;
--> statement-breakpoint
CREATE TRIGGER donation_tallies_insert AFTER INSERT ON donations REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION donation_tallies_of_donations();
--> statement-breakpoint
CREATE TRIGGER donation_tallies_update AFTER UPDATE ON donations REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION donation_tallies_of_donations();
--> statement-breakpoint
CREATE TRIGGER donation_tallies_delete AFTER DELETE ON donations REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION donation_tallies_of_donations();
--> statement-breakpoint
CREATE TRIGGER donation_tallies_pickup_first BEFORE DELETE ON donations
  FOR EACH ROW EXECUTE FUNCTION donation_tallies_drop_pickup();
--> statement-breakpoint
CREATE TRIGGER donation_tallies_insert AFTER INSERT ON pickups REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION donation_tallies_of_pickups();
--> statement-breakpoint
CREATE TRIGGER donation_tallies_update AFTER UPDATE ON pickups REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION donation_tallies_of_pickups();
--> statement-breakpoint
CREATE TRIGGER donation_tallies_delete AFTER DELETE ON pickups REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION donation_tallies_of_pickups();
--> statement-breakpoint
-- The tallies of what is there already; the triggers above hold both tables' writers off until this commits.
INSERT INTO donation_tallies (ngo_id, campaign_id, kind, status, pickup_status, n, amount)
SELECT c.ngo_id, k.campaign_id, c.kind, c.status, c.pickup_status, sum(c.n), sum(c.amount)
FROM (
      SELECT d.recipient_ngo_id AS ngo_id, d.campaign_id, d.kind, d.status, coalesce(p.status::text, '') AS pickup_status,
        1 AS n, coalesce(d.amount, 0) AS amount
      FROM donations d LEFT JOIN pickups p ON p.donation_id = d.id
    ) c
CROSS JOIN LATERAL (VALUES (c.campaign_id), ('00000000-0000-0000-0000-000000000000'::uuid)) AS k (campaign_id)
GROUP BY 1, 2, 3, 4, 5;
