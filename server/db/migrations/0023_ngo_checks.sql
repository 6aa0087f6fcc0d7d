CREATE TYPE "public"."check_kind" AS ENUM('registration', 'pcp', 'tax_exemption');--> statement-breakpoint
CREATE TYPE "public"."registration_authority" AS ENUM('punjab_charity_commission', 'sindh_charity_commission', 'secp_section_42', 'societies_act_1860', 'trusts_act', 'social_welfare_ordinance_1961', 'other');--> statement-breakpoint
ALTER TYPE "public"."file_kind" ADD VALUE 'check';--> statement-breakpoint
CREATE TABLE "ngo_checks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ngo_id" uuid NOT NULL,
	"kind" "check_kind" NOT NULL,
	"authority" "registration_authority",
	"authority_name" text,
	"reference" text NOT NULL,
	"checked_on" text NOT NULL,
	"expires_on" text,
	"document_key" text,
	"checked_by" uuid,
	"renewed_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"revoked_by" uuid,
	"revoked_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ngo_checks_authority" CHECK (("ngo_checks"."kind" = 'registration') = ("ngo_checks"."authority" is not null)),
	CONSTRAINT "ngo_checks_authority_name" CHECK (("ngo_checks"."authority" = 'other') = ("ngo_checks"."authority_name" is not null) or "ngo_checks"."authority" is null),
	CONSTRAINT "ngo_checks_expiry" CHECK ("ngo_checks"."kind" = 'registration' or "ngo_checks"."expires_on" is not null),
	CONSTRAINT "ngo_checks_dates" CHECK ("ngo_checks"."expires_on" is null or "ngo_checks"."expires_on" >= "ngo_checks"."checked_on")
);
--> statement-breakpoint
ALTER TABLE "ngo_checks" ADD CONSTRAINT "ngo_checks_ngo_id_users_id_fk" FOREIGN KEY ("ngo_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ngo_checks" ADD CONSTRAINT "ngo_checks_checked_by_users_id_fk" FOREIGN KEY ("checked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ngo_checks" ADD CONSTRAINT "ngo_checks_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ngo_checks_ngo_idx" ON "ngo_checks" USING btree ("ngo_id","kind","checked_on");--> statement-breakpoint
CREATE INDEX "ngo_checks_document_idx" ON "ngo_checks" USING btree ("document_key");