-- The NGO history's orders by amount and by campaign, each read from an index of the NGO's donations (decision 044,
-- branch history17). The campaign order sorts by the campaign's title, which lives on campaigns: every donation of
-- the NGO was joined to its campaign and sorted (1.2-2.2 s at page 40 at 100x). The title is now kept on the donation
-- (campaign_title): set from its campaign by a BEFORE trigger on insert (and on a change of campaign), copied to the
-- campaign's donations when the campaign is renamed. The application never writes it; shown titles come from campaigns.
ALTER TABLE "donations" ADD COLUMN "campaign_title" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- The backfill changes no state, amount or kind: the tallies' statement trigger would only add zeros (over every row).
ALTER TABLE "donations" DISABLE TRIGGER "donation_tallies_update";--> statement-breakpoint
UPDATE "donations" d SET "campaign_title" = c."title" FROM "campaigns" c WHERE c."id" = d."campaign_id";--> statement-breakpoint
ALTER TABLE "donations" ENABLE TRIGGER "donation_tallies_update";--> statement-breakpoint
CREATE FUNCTION donations_campaign_title() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A campaign that does not exist: the foreign key refuses the row after this trigger.
  NEW.campaign_title := coalesce((SELECT c.title FROM campaigns c WHERE c.id = NEW.campaign_id), '');
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER donations_campaign_title_insert BEFORE INSERT ON donations
  FOR EACH ROW EXECUTE FUNCTION donations_campaign_title();--> statement-breakpoint
CREATE TRIGGER donations_campaign_title_update BEFORE UPDATE OF campaign_id, campaign_title ON donations
  FOR EACH ROW EXECUTE FUNCTION donations_campaign_title();--> statement-breakpoint
CREATE FUNCTION campaigns_title_to_donations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- One campaign's donations (donations_campaign_status_idx); their BEFORE trigger reads the new title.
  UPDATE donations SET campaign_title = NEW.title WHERE campaign_id = NEW.id AND campaign_title IS DISTINCT FROM NEW.title;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER campaigns_title_to_donations AFTER UPDATE OF title ON campaigns
  FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title) EXECUTE FUNCTION campaigns_title_to_donations();--> statement-breakpoint
CREATE INDEX "donations_recipient_kind_amount_idx" ON "donations" USING btree ("recipient_ngo_id","kind","amount","created_at","id");--> statement-breakpoint
CREATE INDEX "donations_recipient_kind_campaign_idx" ON "donations" USING btree ("recipient_ngo_id","kind",lower("campaign_title"),"campaign_id","created_at","id");
