ALTER TYPE "public"."mail_status" ADD VALUE 'queued' BEFORE 'sent';--> statement-breakpoint
ALTER TYPE "public"."mail_status" ADD VALUE 'retrying' BEFORE 'sent';--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "secret_body" text;