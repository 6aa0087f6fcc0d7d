CREATE TYPE "public"."campaign_status" AS ENUM('active', 'completed', 'archived');--> statement-breakpoint
CREATE TYPE "public"."donation_kind" AS ENUM('cash', 'in_kind');--> statement-breakpoint
CREATE TYPE "public"."donation_status" AS ENUM('pending', 'approved', 'rejected');--> statement-breakpoint
CREATE TYPE "public"."partnership_direction" AS ENUM('invited', 'requested');--> statement-breakpoint
CREATE TYPE "public"."partnership_status" AS ENUM('pending', 'accepted', 'declined', 'left');--> statement-breakpoint
CREATE TYPE "public"."payment_method" AS ENUM('jazzcash', 'easypaisa', 'bank');--> statement-breakpoint
CREATE TABLE "campaign_partners" (
	"campaign_id" uuid NOT NULL,
	"ngo_id" uuid NOT NULL,
	"direction" "partnership_direction" NOT NULL,
	"status" "partnership_status" DEFAULT 'pending' NOT NULL,
	"responded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaign_partners_campaign_id_ngo_id_pk" PRIMARY KEY("campaign_id","ngo_id")
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"owner_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"target_amount" bigint NOT NULL,
	"collected_amount" bigint DEFAULT 0 NOT NULL,
	"other_items" text,
	"location_label" text NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"picture_key" text,
	"zakat_eligible" boolean DEFAULT false NOT NULL,
	"status" "campaign_status" DEFAULT 'active' NOT NULL,
	"completed_at" timestamp with time zone,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "donations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campaign_id" uuid NOT NULL,
	"donor_id" uuid NOT NULL,
	"recipient_ngo_id" uuid NOT NULL,
	"kind" "donation_kind" NOT NULL,
	"status" "donation_status" DEFAULT 'pending' NOT NULL,
	"amount" bigint,
	"method" "payment_method",
	"items" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaign_partners" ADD CONSTRAINT "campaign_partners_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_partners" ADD CONSTRAINT "campaign_partners_ngo_id_users_id_fk" FOREIGN KEY ("ngo_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_donor_id_users_id_fk" FOREIGN KEY ("donor_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_recipient_ngo_id_users_id_fk" FOREIGN KEY ("recipient_ngo_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_partners_ngo_status_idx" ON "campaign_partners" USING btree ("ngo_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "campaigns_slug_unique" ON "campaigns" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "campaigns_active_title_unique" ON "campaigns" USING btree (lower("title")) WHERE "campaigns"."status" = 'active';--> statement-breakpoint
CREATE INDEX "campaigns_owner_status_idx" ON "campaigns" USING btree ("owner_id","status","created_at");--> statement-breakpoint
CREATE INDEX "campaigns_status_position_idx" ON "campaigns" USING btree ("status","lat","lng");--> statement-breakpoint
CREATE INDEX "donations_campaign_status_idx" ON "donations" USING btree ("campaign_id","status");--> statement-breakpoint
CREATE INDEX "donations_recipient_status_idx" ON "donations" USING btree ("recipient_ngo_id","status","created_at");--> statement-breakpoint
CREATE INDEX "donations_donor_idx" ON "donations" USING btree ("donor_id","created_at");