-- Pick-up steps and audit entries are ordered by id (taken at insert); their time is the clock at insert (decision 012).
DROP INDEX "pickup_events_donation_idx";--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "created_at" SET DEFAULT clock_timestamp();--> statement-breakpoint
ALTER TABLE "pickup_events" ALTER COLUMN "created_at" SET DEFAULT clock_timestamp();--> statement-breakpoint
CREATE INDEX "pickup_events_donation_idx" ON "pickup_events" USING btree ("donation_id","id");