CREATE TYPE "public"."match_rule" AS ENUM('transaction_id', 'pledge_code', 'amount_phone', 'amount_date', 'manual');--> statement-breakpoint
CREATE TYPE "public"."statement_line_status" AS ENUM('unmatched', 'matched', 'confirmed', 'ignored');--> statement-breakpoint
CREATE TABLE "platform_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"raast_qr" boolean DEFAULT true NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "platform_settings_one_row" CHECK ("platform_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "pledges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"donor_id" uuid NOT NULL,
	"campaign_id" uuid NOT NULL,
	"recipient_ngo_id" uuid NOT NULL,
	"method" "payment_method" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "statement_formats" (
	"ngo_id" uuid NOT NULL,
	"method" "payment_method" NOT NULL,
	"header_signature" text NOT NULL,
	"mapping" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "statement_formats_ngo_id_method_pk" PRIMARY KEY("ngo_id","method")
);
--> statement-breakpoint
CREATE TABLE "statement_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ngo_id" uuid NOT NULL,
	"method" "payment_method" NOT NULL,
	"file_name" text NOT NULL,
	"imported_by" uuid,
	"credit_lines" integer NOT NULL,
	"debit_lines" integer NOT NULL,
	"new_lines" integer NOT NULL,
	"matched_lines" integer DEFAULT 0 NOT NULL,
	"first_day" text,
	"last_day" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "statement_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ngo_id" uuid NOT NULL,
	"method" "payment_method" NOT NULL,
	"import_id" uuid NOT NULL,
	"fingerprint" text NOT NULL,
	"occurrence" integer NOT NULL,
	"file_row" integer NOT NULL,
	"posted_on" text NOT NULL,
	"posted_at" text,
	"amount_paisa" bigint NOT NULL,
	"description" text NOT NULL,
	"sender" text NOT NULL,
	"sender_phone" text,
	"reference" text NOT NULL,
	"balance_paisa" bigint,
	"status" "statement_line_status" DEFAULT 'unmatched' NOT NULL,
	"donation_id" uuid,
	"match_rule" "match_rule",
	"confidence" integer,
	"ignored_reason" text,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "statement_uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ngo_id" uuid NOT NULL,
	"method" "payment_method" NOT NULL,
	"file_name" text NOT NULL,
	"content" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "pledge_id" uuid;--> statement-breakpoint
ALTER TABLE "ngo_profiles" ADD COLUMN "payment_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "platform_settings" ADD CONSTRAINT "platform_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pledges" ADD CONSTRAINT "pledges_donor_id_users_id_fk" FOREIGN KEY ("donor_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pledges" ADD CONSTRAINT "pledges_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pledges" ADD CONSTRAINT "pledges_recipient_ngo_id_users_id_fk" FOREIGN KEY ("recipient_ngo_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_formats" ADD CONSTRAINT "statement_formats_ngo_id_users_id_fk" FOREIGN KEY ("ngo_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_imports" ADD CONSTRAINT "statement_imports_ngo_id_users_id_fk" FOREIGN KEY ("ngo_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_imports" ADD CONSTRAINT "statement_imports_imported_by_users_id_fk" FOREIGN KEY ("imported_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_ngo_id_users_id_fk" FOREIGN KEY ("ngo_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_import_id_statement_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."statement_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_donation_id_donations_id_fk" FOREIGN KEY ("donation_id") REFERENCES "public"."donations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_uploads" ADD CONSTRAINT "statement_uploads_ngo_id_users_id_fk" FOREIGN KEY ("ngo_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "pledges_code_unique" ON "pledges" USING btree ("code");--> statement-breakpoint
CREATE INDEX "pledges_donor_target_idx" ON "pledges" USING btree ("donor_id","campaign_id","recipient_ngo_id","method","created_at");--> statement-breakpoint
CREATE INDEX "statement_imports_ngo_idx" ON "statement_imports" USING btree ("ngo_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "statement_lines_fingerprint_unique" ON "statement_lines" USING btree ("ngo_id","method","fingerprint","occurrence");--> statement-breakpoint
CREATE UNIQUE INDEX "statement_lines_donation_unique" ON "statement_lines" USING btree ("donation_id");--> statement-breakpoint
CREATE INDEX "statement_lines_ngo_status_idx" ON "statement_lines" USING btree ("ngo_id","status","posted_on");--> statement-breakpoint
CREATE INDEX "statement_lines_reference_idx" ON "statement_lines" USING btree ("ngo_id","reference");--> statement-breakpoint
CREATE INDEX "statement_uploads_ngo_idx" ON "statement_uploads" USING btree ("ngo_id","created_at");--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_pledge_id_pledges_id_fk" FOREIGN KEY ("pledge_id") REFERENCES "public"."pledges"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "donations_pledge_unique" ON "donations" USING btree ("pledge_id");--> statement-breakpoint
INSERT INTO "platform_settings" ("id") VALUES (1) ON CONFLICT DO NOTHING;
