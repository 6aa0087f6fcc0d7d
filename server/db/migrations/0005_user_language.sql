CREATE TYPE "public"."user_language" AS ENUM('en', 'ur');--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "language" "user_language" DEFAULT 'en' NOT NULL;