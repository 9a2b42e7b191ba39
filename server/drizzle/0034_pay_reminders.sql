-- A subscription that renews only when its owner pays (QRIS, an e-wallet, a bank transfer) is reminded to pay 7 days
-- and 1 day before its period ends, once each per period: the period the last reminder went out for, and how many
-- days before the end it was (7, then 1), survive restarts and are read under the row lock of the instance sending.
ALTER TABLE "subscriptions" ADD COLUMN "pay_reminder_period" integer;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "pay_reminder_days" integer;
