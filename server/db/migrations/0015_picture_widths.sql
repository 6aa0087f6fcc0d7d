ALTER TABLE "files" ADD COLUMN "widths" integer[];--> statement-breakpoint
-- Only campaign pictures and posters have narrower copies; every other file already has all it needs (decision 034).
UPDATE "files" SET "widths" = '{}' WHERE "kind" NOT IN ('campaign', 'poster');--> statement-breakpoint
CREATE INDEX "files_widths_pending_idx" ON "files" USING btree ("key") WHERE "files"."widths" is null;
