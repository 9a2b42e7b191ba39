-- A change of email is confirmed by a code sent to the new address (purpose 'change_email').
ALTER TABLE "verification_codes" DROP CONSTRAINT "verification_codes_purpose_check";--> statement-breakpoint
ALTER TABLE "verification_codes" ADD CONSTRAINT "verification_codes_purpose_check" CHECK ("verification_codes"."purpose" in ('reset_password', 'auth_code', 'refund_request', 'delete_account', 'change_email'));
