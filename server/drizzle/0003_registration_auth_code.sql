ALTER TABLE "verification_codes" DROP CONSTRAINT "verification_codes_purpose_check";--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "password_hash" text;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "auth_code_issued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "verification_codes" ADD CONSTRAINT "verification_codes_purpose_check" CHECK ("verification_codes"."purpose" in ('reset_password', 'auth_code', 'refund_request', 'delete_account'));