-- A renewal by hand booked after its subscription had been renewed meanwhile (a late renewal charge or another
-- attempt paid the period first) is a second payment for one period: recorded succeeded and owed back.
ALTER TABLE "payments" DROP CONSTRAINT "payments_refund_reason_check";--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refund_reason_check" CHECK ("payments"."refund_reason" in ('email_in_use', 'late_renewal', 'duplicate_payment'));
