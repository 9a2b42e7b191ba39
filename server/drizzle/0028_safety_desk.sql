-- The safety desk: what the operator decided about each abuse report, suspended accounts (the email kept only as a
-- keyed hash, so that sign-up refuses it while the suspension stands), contact messages read and answered, refunds
-- owed because of a suspension, and refunds the operator made by hand with their reference.
ALTER TABLE "abuse_reports" ADD COLUMN "outcome" text;
--> statement-breakpoint
ALTER TABLE "abuse_reports" ADD COLUMN "closed_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "abuse_reports" ADD COLUMN "closed_by" uuid;
--> statement-breakpoint
ALTER TABLE "abuse_reports" ADD COLUMN "operator_note" text;
--> statement-breakpoint
ALTER TABLE "abuse_reports" ADD CONSTRAINT "abuse_reports_outcome_check" CHECK ("abuse_reports"."outcome" in ('dismissed', 'warned', 'suspended'));
--> statement-breakpoint
ALTER TABLE "abuse_reports" ADD CONSTRAINT "abuse_reports_closed_check" CHECK (("abuse_reports"."outcome" is null) = ("abuse_reports"."closed_at" is null));
--> statement-breakpoint
CREATE INDEX "abuse_reports_requester_id_idx" ON "abuse_reports" USING btree ("requester_id") WHERE "abuse_reports"."requester_id" is not null;
--> statement-breakpoint
CREATE TABLE "account_suspensions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"email_hash" text NOT NULL,
	"report_id" uuid,
	"note" text NOT NULL,
	"suspended_at" timestamp with time zone DEFAULT now() NOT NULL,
	"suspended_by" uuid,
	"refund_payment_id" uuid,
	"lifted_at" timestamp with time zone,
	"lifted_by" uuid,
	"lift_note" text
);
--> statement-breakpoint
ALTER TABLE "account_suspensions" ADD CONSTRAINT "account_suspensions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "account_suspensions" ADD CONSTRAINT "account_suspensions_report_id_abuse_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."abuse_reports"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "account_suspensions" ADD CONSTRAINT "account_suspensions_refund_payment_id_payments_id_fk" FOREIGN KEY ("refund_payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "account_suspensions_standing_user_unique" ON "account_suspensions" USING btree ("user_id") WHERE "account_suspensions"."lifted_at" is null and "account_suspensions"."user_id" is not null;
--> statement-breakpoint
CREATE INDEX "account_suspensions_standing_email_idx" ON "account_suspensions" USING btree ("email_hash") WHERE "account_suspensions"."lifted_at" is null;
--> statement-breakpoint
CREATE INDEX "account_suspensions_suspended_at_idx" ON "account_suspensions" USING btree ("suspended_at");
--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "read_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "answered_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "answer_note" text;
--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_refund_reason_check";
--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refund_reason_check" CHECK ("payments"."refund_reason" in ('email_in_use', 'late_renewal', 'duplicate_payment', 'suspension'));
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_reference" text;
--> statement-breakpoint
ALTER TABLE "refund_requests" ADD COLUMN "refunded_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "refund_requests" ADD COLUMN "refund_reference" text;
