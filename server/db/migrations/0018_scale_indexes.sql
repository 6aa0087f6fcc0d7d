CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "donations_recipient_status_idx";--> statement-breakpoint
CREATE INDEX "campaigns_status_created_idx" ON "campaigns" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "campaigns_owner_title_idx" ON "campaigns" USING btree ("owner_id",lower("title"),"id");--> statement-breakpoint
CREATE INDEX "campaigns_title_trgm_idx" ON "campaigns" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "campaigns_location_trgm_idx" ON "campaigns" USING gin ("location_label" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "campaigns_location_ur_trgm_idx" ON "campaigns" USING gin ("location_label_ur" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "donations_recipient_kind_created_idx" ON "donations" USING btree ("recipient_ngo_id","kind","created_at","id");--> statement-breakpoint
CREATE INDEX "donations_recipient_kind_status_idx" ON "donations" USING btree ("recipient_ngo_id","kind","status","created_at","id");--> statement-breakpoint
CREATE INDEX "ngo_profiles_name_trgm_idx" ON "ngo_profiles" USING gin ("name" gin_trgm_ops);