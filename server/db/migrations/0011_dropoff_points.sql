CREATE TABLE "dropoff_points" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ngo_id" uuid NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"area_label" text NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "pickups" ADD COLUMN "dropoff_id" uuid;--> statement-breakpoint
ALTER TABLE "dropoff_points" ADD CONSTRAINT "dropoff_points_ngo_id_users_id_fk" FOREIGN KEY ("ngo_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dropoff_points_ngo_idx" ON "dropoff_points" USING btree ("ngo_id","removed_at");--> statement-breakpoint
ALTER TABLE "pickups" ADD CONSTRAINT "pickups_dropoff_id_dropoff_points_id_fk" FOREIGN KEY ("dropoff_id") REFERENCES "public"."dropoff_points"("id") ON DELETE set null ON UPDATE no action;