CREATE TYPE "public"."application_status" AS ENUM('pending', 'approved', 'declined');--> statement-breakpoint
CREATE TYPE "public"."position_status" AS ENUM('active', 'closed');--> statement-breakpoint
CREATE TABLE "volunteer_applications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"position_id" uuid NOT NULL,
	"donor_id" uuid NOT NULL,
	"motivation" text NOT NULL,
	"experience" text,
	"resume_key" text,
	"idempotency_key" text NOT NULL,
	"status" "application_status" DEFAULT 'pending' NOT NULL,
	"decision_message" text,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "volunteer_positions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ngo_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"responsibilities" text,
	"working_hours" text NOT NULL,
	"duration" text,
	"timings" text NOT NULL,
	"city_label" text,
	"city_lat" double precision,
	"city_lng" double precision,
	"volunteers_needed" integer NOT NULL,
	"closes_on" text,
	"poster_key" text,
	"status" "position_status" DEFAULT 'active' NOT NULL,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "volunteer_applications" ADD CONSTRAINT "volunteer_applications_position_id_volunteer_positions_id_fk" FOREIGN KEY ("position_id") REFERENCES "public"."volunteer_positions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "volunteer_applications" ADD CONSTRAINT "volunteer_applications_donor_id_users_id_fk" FOREIGN KEY ("donor_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "volunteer_applications" ADD CONSTRAINT "volunteer_applications_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "volunteer_positions" ADD CONSTRAINT "volunteer_positions_ngo_id_users_id_fk" FOREIGN KEY ("ngo_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "volunteer_applications_position_donor_unique" ON "volunteer_applications" USING btree ("position_id","donor_id");--> statement-breakpoint
CREATE INDEX "volunteer_applications_position_status_idx" ON "volunteer_applications" USING btree ("position_id","status","created_at");--> statement-breakpoint
CREATE INDEX "volunteer_applications_donor_idx" ON "volunteer_applications" USING btree ("donor_id","created_at");--> statement-breakpoint
CREATE INDEX "volunteer_applications_resume_idx" ON "volunteer_applications" USING btree ("resume_key");--> statement-breakpoint
CREATE INDEX "volunteer_positions_ngo_status_idx" ON "volunteer_positions" USING btree ("ngo_id","status","created_at");--> statement-breakpoint
CREATE INDEX "volunteer_positions_status_idx" ON "volunteer_positions" USING btree ("status","created_at");