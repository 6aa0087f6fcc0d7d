CREATE TABLE "partnered_campaigns" (
	"ngo_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"partnership" "partnership_status" NOT NULL,
	"owner_id" uuid NOT NULL,
	"status" "campaign_status" NOT NULL,
	"title" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "partnered_campaigns_ngo_id_id_pk" PRIMARY KEY("ngo_id","id")
);
--> statement-breakpoint
CREATE INDEX "partnered_campaigns_title_idx" ON "partnered_campaigns" USING btree ("ngo_id",lower("title"),"id");--> statement-breakpoint
CREATE INDEX "partnered_campaigns_created_idx" ON "partnered_campaigns" USING btree ("ngo_id","status","created_at","id") WHERE "partnered_campaigns"."partnership" = 'accepted' and "partnered_campaigns"."owner_id" <> "partnered_campaigns"."ngo_id";--> statement-breakpoint
CREATE INDEX "partnered_campaigns_completed_idx" ON "partnered_campaigns" USING btree ("ngo_id","status","completed_at","id") WHERE "partnered_campaigns"."partnership" = 'accepted' and "partnered_campaigns"."owner_id" <> "partnered_campaigns"."ngo_id";--> statement-breakpoint
-- Hand-written (decision 044): the triggers that keep partnered_campaigns, and what is there already. A statement that
-- makes, changes or removes partnerships writes their rows (a change deletes the old keys and writes the new rows);
-- one that changes a campaign's owner, state, title or dates copies them to its partnerships. The copy of a new
-- partnership reads its campaign FOR SHARE: a concurrent change of the campaign (FOR NO KEY UPDATE, which the foreign
-- key's KEY SHARE lets through) waits for it or is waited for, and the later statement sees the earlier one's rows.
CREATE FUNCTION partnered_campaigns_of_partners() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM partnered_campaigns p USING old_rows o WHERE p.ngo_id = o.ngo_id AND p.id = o.campaign_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO partnered_campaigns (ngo_id, id, partnership, owner_id, status, title, created_at, completed_at)
    SELECT n.ngo_id, c.id, n.status, c.owner_id, c.status, c.title, c.created_at, c.completed_at
    FROM new_rows n JOIN campaigns c ON c.id = n.campaign_id
    ORDER BY n.ngo_id, c.id
    FOR SHARE OF c;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER partnered_campaigns_insert AFTER INSERT ON campaign_partners REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION partnered_campaigns_of_partners();
--> statement-breakpoint
CREATE TRIGGER partnered_campaigns_update AFTER UPDATE ON campaign_partners REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION partnered_campaigns_of_partners();
--> statement-breakpoint
CREATE TRIGGER partnered_campaigns_delete AFTER DELETE ON campaign_partners REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION partnered_campaigns_of_partners();
--> statement-breakpoint
CREATE FUNCTION partnered_campaigns_of_campaigns() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE partnered_campaigns p
  SET owner_id = n.owner_id, status = n.status, title = n.title, created_at = n.created_at, completed_at = n.completed_at
  FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN campaign_partners cp ON cp.campaign_id = n.id
  WHERE p.ngo_id = cp.ngo_id AND p.id = n.id
    AND (o.owner_id, o.status, o.title, o.created_at, o.completed_at)
      IS DISTINCT FROM (n.owner_id, n.status, n.title, n.created_at, n.completed_at);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER partnered_campaigns_campaign_update AFTER UPDATE ON campaigns REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION partnered_campaigns_of_campaigns();
--> statement-breakpoint
INSERT INTO partnered_campaigns (ngo_id, id, partnership, owner_id, status, title, created_at, completed_at)
SELECT cp.ngo_id, c.id, cp.status, c.owner_id, c.status, c.title, c.created_at, c.completed_at
FROM campaign_partners cp JOIN campaigns c ON c.id = cp.campaign_id;
