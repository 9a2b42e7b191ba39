-- The recipient's consent overview (/my-requests): its emailed or texted codes and its 15-minute sessions are
-- verification codes of two new purposes, keyed by the keyed hash of the address (never the address); the requests
-- to an address are found by their target_hash.
ALTER TABLE "verification_codes" DROP CONSTRAINT "verification_codes_purpose_check";
--> statement-breakpoint
ALTER TABLE "verification_codes" ADD CONSTRAINT "verification_codes_purpose_check" CHECK ("verification_codes"."purpose" in ('reset_password', 'auth_code', 'refund_request', 'delete_account', 'change_email', 'overview_code', 'overview_session'));
--> statement-breakpoint
CREATE INDEX "location_requests_target_hash_idx" ON "location_requests" USING btree ("target_hash") WHERE "location_requests"."target_hash" is not null;
