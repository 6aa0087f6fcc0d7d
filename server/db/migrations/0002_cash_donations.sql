ALTER TABLE "donations" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "transaction_id" text;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "proof_key" text;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "proof_fingerprint" text;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "rejection_reason" text;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "decided_by" uuid;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "receipt_number" integer;--> statement-breakpoint
ALTER TABLE "ngo_profiles" ADD COLUMN "receipt_counter" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "donations_donor_idempotency_unique" ON "donations" USING btree ("donor_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "donations_receipt_unique" ON "donations" USING btree ("recipient_ngo_id","receipt_number");--> statement-breakpoint
CREATE INDEX "donations_transaction_idx" ON "donations" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "donations_fingerprint_idx" ON "donations" USING btree ("proof_fingerprint");