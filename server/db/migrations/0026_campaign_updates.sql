CREATE TYPE "public"."support_word_status" AS ENUM('pending', 'approved', 'hidden');--> statement-breakpoint
CREATE TYPE "public"."update_status" AS ENUM('draft', 'published', 'removed');--> statement-breakpoint
ALTER TYPE "public"."file_kind" ADD VALUE 'update';--> statement-breakpoint
CREATE TABLE "campaign_update_mails" (
	"campaign_id" uuid NOT NULL,
	"donor_id" uuid NOT NULL,
	"update_id" uuid NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "campaign_update_mails_campaign_id_donor_id_pk" PRIMARY KEY("campaign_id","donor_id")
);
--> statement-breakpoint
CREATE TABLE "campaign_update_photos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"update_id" uuid NOT NULL,
	"photo_key" text NOT NULL,
	"position" integer NOT NULL,
	"shows_people" boolean NOT NULL,
	"consent_by" uuid,
	"consent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "campaign_updates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campaign_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"body" text NOT NULL,
	"status" "update_status" DEFAULT 'draft' NOT NULL,
	"published_at" timestamp with time zone,
	"removed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "support_words" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campaign_id" uuid NOT NULL,
	"donor_id" uuid NOT NULL,
	"body" text NOT NULL,
	"status" "support_word_status" DEFAULT 'pending' NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaign_update_mails" ADD CONSTRAINT "campaign_update_mails_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_update_mails" ADD CONSTRAINT "campaign_update_mails_donor_id_users_id_fk" FOREIGN KEY ("donor_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_update_mails" ADD CONSTRAINT "campaign_update_mails_update_id_campaign_updates_id_fk" FOREIGN KEY ("update_id") REFERENCES "public"."campaign_updates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_update_photos" ADD CONSTRAINT "campaign_update_photos_update_id_campaign_updates_id_fk" FOREIGN KEY ("update_id") REFERENCES "public"."campaign_updates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_update_photos" ADD CONSTRAINT "campaign_update_photos_consent_by_users_id_fk" FOREIGN KEY ("consent_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_updates" ADD CONSTRAINT "campaign_updates_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_updates" ADD CONSTRAINT "campaign_updates_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_words" ADD CONSTRAINT "support_words_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_words" ADD CONSTRAINT "support_words_donor_id_users_id_fk" FOREIGN KEY ("donor_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_words" ADD CONSTRAINT "support_words_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_update_mails_unsent_idx" ON "campaign_update_mails" USING btree ("update_id","donor_id") WHERE "campaign_update_mails"."sent_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_update_photos_key_unique" ON "campaign_update_photos" USING btree ("photo_key");--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_update_photos_update_position_unique" ON "campaign_update_photos" USING btree ("update_id","position");--> statement-breakpoint
CREATE INDEX "campaign_updates_campaign_status_idx" ON "campaign_updates" USING btree ("campaign_id","status","published_at");--> statement-breakpoint
CREATE UNIQUE INDEX "support_words_campaign_donor_unique" ON "support_words" USING btree ("campaign_id","donor_id");--> statement-breakpoint
CREATE INDEX "support_words_campaign_status_idx" ON "support_words" USING btree ("campaign_id","status","created_at");--> statement-breakpoint
CREATE INDEX "donations_campaign_donor_approved_idx" ON "donations" USING btree ("campaign_id","donor_id") WHERE "donations"."status" = 'approved';