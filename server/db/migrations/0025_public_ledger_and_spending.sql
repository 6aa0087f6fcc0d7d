CREATE TYPE "public"."spending_status" AS ENUM('draft', 'published');--> statement-breakpoint
ALTER TYPE "public"."file_kind" ADD VALUE 'spending';--> statement-breakpoint
CREATE TABLE "spending_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campaign_id" uuid NOT NULL,
	"ngo_id" uuid NOT NULL,
	"fund" "fund_kind" NOT NULL,
	"amount" bigint NOT NULL,
	"spent_on" text NOT NULL,
	"purpose" text NOT NULL,
	"document_key" text NOT NULL,
	"corrects_id" uuid,
	"status" "spending_status" DEFAULT 'draft' NOT NULL,
	"created_by" uuid,
	"published_by" uuid,
	"published_at" timestamp with time zone,
	"redaction_confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "spending_records_amount_positive" CHECK ("spending_records"."amount" > 0),
	CONSTRAINT "spending_records_published_whole" CHECK ("spending_records"."status" = 'draft' or ("spending_records"."published_at" is not null and "spending_records"."redaction_confirmed_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "spending_records" ADD CONSTRAINT "spending_records_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spending_records" ADD CONSTRAINT "spending_records_ngo_id_users_id_fk" FOREIGN KEY ("ngo_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spending_records" ADD CONSTRAINT "spending_records_corrects_id_spending_records_id_fk" FOREIGN KEY ("corrects_id") REFERENCES "public"."spending_records"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spending_records" ADD CONSTRAINT "spending_records_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spending_records" ADD CONSTRAINT "spending_records_published_by_users_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "spending_records_campaign_status_idx" ON "spending_records" USING btree ("campaign_id","status","spent_on","id");--> statement-breakpoint
CREATE INDEX "spending_records_document_idx" ON "spending_records" USING btree ("document_key");--> statement-breakpoint
CREATE UNIQUE INDEX "spending_records_corrects_published_unique" ON "spending_records" USING btree ("corrects_id") WHERE "spending_records"."status" = 'published';