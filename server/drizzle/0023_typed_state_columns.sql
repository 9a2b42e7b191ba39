-- The last free-text state columns take only the values the code knows (db/column-values.ts), like every other
-- state column: a webhook's provider, a refund request's language, an opt-out's channel, an abuse report's reason
-- and a live event's type. Every value stored so far came from those same lists.
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_provider_check" CHECK ("webhook_events"."provider" in ('stripe', 'paypal'));
--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_locale_check" CHECK ("refund_requests"."locale" in ('en', 'id'));
--> statement-breakpoint
ALTER TABLE "opt_outs" ADD CONSTRAINT "opt_outs_channel_check" CHECK ("opt_outs"."channel" in ('sms', 'email', 'link'));
--> statement-breakpoint
ALTER TABLE "abuse_reports" ADD CONSTRAINT "abuse_reports_reason_check" CHECK ("abuse_reports"."reason" in ('unknown_requester', 'harassment', 'stalking', 'spam', 'other'));
--> statement-breakpoint
ALTER TABLE "request_events" ADD CONSTRAINT "request_events_type_check" CHECK ("request_events"."type" in ('request', 'position', 'withdrawn'));
