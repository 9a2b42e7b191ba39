-- A refund we owe that the provider refused for good (a charge too old to refund, a capture PayPal will not
-- refund): no longer retried (refund_owed_at cleared), recorded with the provider's error code, left to the operator.
ALTER TABLE "payments" ADD COLUMN "refund_failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_failure" text;
