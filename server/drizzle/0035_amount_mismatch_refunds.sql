-- A local payment (QRIS, an e-wallet, a transfer) that Midtrans reports paid with another amount or currency than
-- asked ends its attempt, and the money taken is recorded succeeded and owed back, for the operator to return.
ALTER TABLE "payments" DROP CONSTRAINT "payments_refund_reason_check";--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refund_reason_check" CHECK ("payments"."refund_reason" in ('email_in_use', 'late_renewal', 'duplicate_payment', 'suspension', 'amount_mismatch'));
