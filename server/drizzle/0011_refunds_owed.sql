-- A refund we owe: money taken that we did not earn (a first charge whose email was taken meanwhile, or a renewal
-- charge that succeeded after its period had moved on). Set in the transaction that finds it out; the refund is
-- made at the provider afterwards and retried by the reconciliation jobs until it goes through. refund_reason
-- stays once refunded (the provider's refund event then ends no subscription); refund_owed_at is cleared.
ALTER TABLE "payments" ADD COLUMN "refund_reason" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_owed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refund_reason_check" CHECK ("payments"."refund_reason" in ('email_in_use', 'late_renewal'));--> statement-breakpoint
CREATE INDEX "payments_refund_owed_idx" ON "payments" USING btree ("refund_owed_at") WHERE "payments"."refund_owed_at" is not null;
