ALTER TYPE "public"."spending_status" ADD VALUE 'taken_down';--> statement-breakpoint
ALTER TABLE "spending_records" ADD COLUMN "taken_down_by" uuid;--> statement-breakpoint
ALTER TABLE "spending_records" ADD COLUMN "taken_down_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "spending_records" ADD COLUMN "takedown_reason" text;--> statement-breakpoint
ALTER TABLE "spending_records" ADD CONSTRAINT "spending_records_taken_down_by_users_id_fk" FOREIGN KEY ("taken_down_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_words_waiting_unread_unique" ON "notifications" USING btree ("user_id",("params"->>'campaignId')) WHERE "notifications"."type" = 'supportWordsWaiting' and "notifications"."read_at" is null;--> statement-breakpoint
ALTER TABLE "spending_records" ADD CONSTRAINT "spending_records_taken_down_whole" CHECK (("spending_records"."status"::text = 'taken_down') = ("spending_records"."taken_down_at" is not null and "spending_records"."takedown_reason" is not null));