-- The built-in sandbox processor is called 'sandbox' in the provider columns (it was 'v5pay'). Its charge ids
-- (`v5pay_ch_…`) and saved payment methods (`v5pay:card:…`, which renewals split on ':') take the new name too, so
-- no stored value keeps the old one.
ALTER TABLE "registrations" DROP CONSTRAINT "registrations_provider_check";--> statement-breakpoint
ALTER TABLE "subscriptions" DROP CONSTRAINT "subscriptions_provider_check";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_provider_check";--> statement-breakpoint
UPDATE "registrations" SET
		"provider" = 'sandbox',
		"provider_ref" = regexp_replace("provider_ref", '^v5pay_ch_', 'sandbox_ch_')
	WHERE "provider" = 'v5pay';--> statement-breakpoint
UPDATE "subscriptions" SET
		"provider" = 'sandbox',
		"provider_payment_method_ref" = regexp_replace("provider_payment_method_ref", '^v5pay:', 'sandbox:')
	WHERE "provider" = 'v5pay';--> statement-breakpoint
UPDATE "payments" SET
		"provider" = 'sandbox',
		"provider_ref" = regexp_replace("provider_ref", '^v5pay_ch_', 'sandbox_ch_')
	WHERE "provider" = 'v5pay';--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_provider_check" CHECK ("registrations"."provider" in ('sandbox', 'stripe', 'paypal'));--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_provider_check" CHECK ("subscriptions"."provider" in ('sandbox', 'stripe', 'paypal'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_provider_check" CHECK ("payments"."provider" in ('sandbox', 'stripe', 'paypal'));
