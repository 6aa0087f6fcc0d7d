CREATE TYPE "public"."fund_kind" AS ENUM('zakat', 'sadaqah', 'fitrana', 'general');--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "fund" "fund_kind" DEFAULT 'general' NOT NULL;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "show_name" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "in_name_of" text;