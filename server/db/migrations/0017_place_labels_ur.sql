ALTER TABLE "campaigns" ADD COLUMN "location_label_ur" text;--> statement-breakpoint
ALTER TABLE "dropoff_points" ADD COLUMN "area_label_ur" text;--> statement-breakpoint
ALTER TABLE "pickups" ADD COLUMN "area_label_ur" text;--> statement-breakpoint
ALTER TABLE "rider_profiles" ADD COLUMN "area_label_ur" text;--> statement-breakpoint
ALTER TABLE "volunteer_positions" ADD COLUMN "city_label_ur" text;