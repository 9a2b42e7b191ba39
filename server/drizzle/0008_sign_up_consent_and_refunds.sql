-- Consent given at sign-up (the create-account step): when the person confirmed being 18 or older and accepted the
-- terms, and which terms (their "last updated" date). Kept on the attempt and copied to the account it creates.
ALTER TABLE "registrations" ADD COLUMN "age_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "terms_accepted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "terms_version" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "age_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "terms_accepted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "terms_version" text;--> statement-breakpoint
-- When the reconciliation job last asked the provider about a sign-up still being queried (its webhook is late).
ALTER TABLE "registrations" ADD COLUMN "checked_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "registrations_querying_idx" ON "registrations" USING btree ("created_at") WHERE "registrations"."state" = 'querying';--> statement-breakpoint
-- Refunds and disputes the provider reports: how much went back, and when a dispute was opened.
ALTER TABLE "payments" ADD COLUMN "refunded_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "disputed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_state_check";--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_state_check" CHECK ("payments"."state" in ('pending', 'succeeded', 'failed', 'refunded', 'partly_refunded', 'disputed'));
