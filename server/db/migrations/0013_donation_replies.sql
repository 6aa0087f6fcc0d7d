CREATE TABLE "donation_replies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"donation_id" uuid NOT NULL,
	"message" text NOT NULL,
	"rejection_reason" text NOT NULL,
	"rejected_by" uuid,
	"rejected_at" timestamp with time zone,
	"previous_transaction_id" text,
	"previous_proof_key" text,
	"previous_proof_fingerprint" text,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "donation_replies" ADD CONSTRAINT "donation_replies_donation_id_donations_id_fk" FOREIGN KEY ("donation_id") REFERENCES "public"."donations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donation_replies" ADD CONSTRAINT "donation_replies_rejected_by_users_id_fk" FOREIGN KEY ("rejected_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "donation_replies_donation_unique" ON "donation_replies" USING btree ("donation_id");--> statement-breakpoint
CREATE INDEX "donation_replies_proof_idx" ON "donation_replies" USING btree ("previous_proof_key");