CREATE TABLE "abuse_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid,
	"reason" text NOT NULL,
	"details" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "geocode_cache" (
	"key" text PRIMARY KEY NOT NULL,
	"address" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "location_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"target" text,
	"title" text,
	"token" text NOT NULL,
	"locale" text NOT NULL,
	"template_id" text,
	"note" text,
	"message_id" uuid,
	"status" text DEFAULT 'pending' NOT NULL,
	"consent" text DEFAULT 'none' NOT NULL,
	"opened_at" timestamp with time zone,
	"consented_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"live_until" timestamp with time zone,
	"located_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "location_requests_channel_check" CHECK ("location_requests"."channel" in ('sms', 'email', 'link')),
	CONSTRAINT "location_requests_status_check" CHECK ("location_requests"."status" in ('pending', 'ip_located', 'gps_tracked')),
	CONSTRAINT "location_requests_consent_check" CHECK ("location_requests"."consent" in ('none', 'declined', 'sharing', 'stopped', 'withdrawn', 'cancelled')),
	CONSTRAINT "location_requests_locale_check" CHECK ("location_requests"."locale" in ('en', 'id'))
);
--> statement-breakpoint
CREATE TABLE "opt_outs" (
	"target_hash" text PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"subscription_id" uuid,
	"registration_id" uuid,
	"kind" text NOT NULL,
	"period_index" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"provider" text NOT NULL,
	"provider_ref" text,
	"currency" text NOT NULL,
	"amount" integer NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"failure_code" text,
	"card_brand" text,
	"card_last4" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "payments_kind_check" CHECK ("payments"."kind" in ('first_day', 'renewal')),
	CONSTRAINT "payments_state_check" CHECK ("payments"."state" in ('pending', 'succeeded', 'failed', 'refunded')),
	CONSTRAINT "payments_provider_check" CHECK ("payments"."provider" in ('v5pay', 'stripe', 'paypal'))
);
--> statement-breakpoint
CREATE TABLE "positions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "positions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"request_id" uuid NOT NULL,
	"source" text NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"accuracy_meters" double precision,
	"address" text,
	"recorded_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "positions_source_check" CHECK ("positions"."source" in ('ip', 'gps'))
);
--> statement-breakpoint
CREATE TABLE "refund_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"email" text NOT NULL,
	"reason" text NOT NULL,
	"locale" text NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refund_requests_state_check" CHECK ("refund_requests"."state" in ('open', 'refunded', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "registrations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"display_name" text NOT NULL,
	"phone" text,
	"locale" text NOT NULL,
	"provider" text NOT NULL,
	"state" text DEFAULT 'querying' NOT NULL,
	"failure_code" text,
	"failure_message" text,
	"user_id" uuid,
	"subscription_id" uuid,
	"provider_ref" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "registrations_provider_check" CHECK ("registrations"."provider" in ('v5pay', 'stripe', 'paypal')),
	CONSTRAINT "registrations_state_check" CHECK ("registrations"."state" in ('querying', 'created', 'sign_failed', 'unsubscribed', 'unknown')),
	CONSTRAINT "registrations_locale_check" CHECK ("registrations"."locale" in ('en', 'id'))
);
--> statement-breakpoint
CREATE TABLE "request_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "request_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" uuid NOT NULL,
	"request_id" uuid,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "send_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"last_sent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text NOT NULL,
	"provider" text NOT NULL,
	"provider_customer_ref" text,
	"provider_payment_method_ref" text,
	"currency" text NOT NULL,
	"first_day_amount" integer NOT NULL,
	"amount" integer NOT NULL,
	"period_days" integer NOT NULL,
	"period_index" integer DEFAULT 0 NOT NULL,
	"current_period_start" timestamp with time zone NOT NULL,
	"valid_until" timestamp with time zone NOT NULL,
	"reminder_sent_for_period" integer,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_status_check" CHECK ("subscriptions"."status" in ('trial', 'active', 'cancelled', 'expired', 'unsubscribed')),
	CONSTRAINT "subscriptions_provider_check" CHECK ("subscriptions"."provider" in ('v5pay', 'stripe', 'paypal'))
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "abuse_reports" ADD CONSTRAINT "abuse_reports_request_id_location_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."location_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_requests" ADD CONSTRAINT "location_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_requests" ADD CONSTRAINT "location_requests_message_id_outbox_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."outbox_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "positions" ADD CONSTRAINT "positions_request_id_location_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."location_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_events" ADD CONSTRAINT "request_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_events" ADD CONSTRAINT "request_events_request_id_location_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."location_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "location_requests_token_unique" ON "location_requests" USING btree ("token");--> statement-breakpoint
CREATE INDEX "location_requests_user_created_idx" ON "location_requests" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_idempotency_key_unique" ON "payments" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "payments_user_id_idx" ON "payments" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "payments_provider_ref_idx" ON "payments" USING btree ("provider_ref");--> statement-breakpoint
CREATE INDEX "positions_request_id_idx" ON "positions" USING btree ("request_id","id");--> statement-breakpoint
CREATE INDEX "positions_created_at_idx" ON "positions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "registrations_provider_ref_idx" ON "registrations" USING btree ("provider_ref");--> statement-breakpoint
CREATE INDEX "request_events_user_id_idx" ON "request_events" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_user_id_unique" ON "subscriptions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "subscriptions_due_idx" ON "subscriptions" USING btree ("status","valid_until");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_events_provider_event_unique" ON "webhook_events" USING btree ("provider","event_id");