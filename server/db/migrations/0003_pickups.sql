CREATE TYPE "public"."pickup_event" AS ENUM('requested', 'assigned', 'accepted', 'declined', 'collected', 'delivered', 'received', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."pickup_slot" AS ENUM('morning', 'afternoon', 'evening');--> statement-breakpoint
CREATE TYPE "public"."pickup_status" AS ENUM('new', 'assigned', 'accepted', 'collected', 'delivered', 'received', 'cancelled');--> statement-breakpoint
CREATE TABLE "pickup_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"donation_id" uuid NOT NULL,
	"type" "pickup_event" NOT NULL,
	"actor_id" uuid,
	"rider_id" uuid,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pickups" (
	"donation_id" uuid PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"area_label" text NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"window_date" text NOT NULL,
	"window_slot" "pickup_slot" NOT NULL,
	"status" "pickup_status" DEFAULT 'new' NOT NULL,
	"rider_id" uuid,
	"code" text NOT NULL,
	"received_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rider_profiles" ADD COLUMN "area_label" text;--> statement-breakpoint
ALTER TABLE "rider_profiles" ADD COLUMN "area_lat" double precision;--> statement-breakpoint
ALTER TABLE "rider_profiles" ADD COLUMN "area_lng" double precision;--> statement-breakpoint
ALTER TABLE "pickup_events" ADD CONSTRAINT "pickup_events_donation_id_donations_id_fk" FOREIGN KEY ("donation_id") REFERENCES "public"."donations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pickup_events" ADD CONSTRAINT "pickup_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pickup_events" ADD CONSTRAINT "pickup_events_rider_id_users_id_fk" FOREIGN KEY ("rider_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pickups" ADD CONSTRAINT "pickups_donation_id_donations_id_fk" FOREIGN KEY ("donation_id") REFERENCES "public"."donations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pickups" ADD CONSTRAINT "pickups_rider_id_users_id_fk" FOREIGN KEY ("rider_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pickup_events_donation_idx" ON "pickup_events" USING btree ("donation_id","created_at");--> statement-breakpoint
CREATE INDEX "pickups_rider_status_idx" ON "pickups" USING btree ("rider_id","status");--> statement-breakpoint
CREATE INDEX "pickups_status_idx" ON "pickups" USING btree ("status");