-- Midtrans, an Indonesian payment gateway, joins the providers (and the webhooks handled once each); a payment the
-- payer completes in their own app (QRIS, an e-wallet, a bank's virtual account) keeps what its page shows while it
-- waits: the code or account number, the amount, and when it expires.
ALTER TABLE "registrations" DROP CONSTRAINT "registrations_provider_check";--> statement-breakpoint
ALTER TABLE "subscriptions" DROP CONSTRAINT "subscriptions_provider_check";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_provider_check";--> statement-breakpoint
ALTER TABLE "webhook_events" DROP CONSTRAINT "webhook_events_provider_check";--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_provider_check" CHECK ("registrations"."provider" in ('sandbox', 'stripe', 'paypal', 'midtrans'));--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_provider_check" CHECK ("subscriptions"."provider" in ('sandbox', 'stripe', 'paypal', 'midtrans'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_provider_check" CHECK ("payments"."provider" in ('sandbox', 'stripe', 'paypal', 'midtrans'));--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_provider_check" CHECK ("webhook_events"."provider" in ('stripe', 'paypal', 'midtrans'));--> statement-breakpoint
CREATE TABLE "local_payments" (
	"registration_id" uuid PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"currency" text NOT NULL,
	"amount" integer NOT NULL,
	"qr_string" text,
	"deeplink_url" text,
	"va_number" text,
	"biller_code" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "local_payments_channel_check" CHECK ("local_payments"."channel" in ('qris', 'gopay', 'shopeepay', 'bca_va', 'bni_va', 'bri_va', 'mandiri_bill'))
);
--> statement-breakpoint
ALTER TABLE "local_payments" ADD CONSTRAINT "local_payments_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;
