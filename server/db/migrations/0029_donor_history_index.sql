DROP INDEX "donations_donor_idx";--> statement-breakpoint
CREATE INDEX "donations_donor_created_idx" ON "donations" USING btree ("donor_id","created_at","id");