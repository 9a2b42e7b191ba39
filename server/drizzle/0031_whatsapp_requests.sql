-- WhatsApp: the outbox takes WhatsApp messages, and a request to a number says it was sent by WhatsApp and, when the
-- number had no WhatsApp, what was done instead (an SMS, or none: the day's SMS limits, an opt-out).
ALTER TABLE "outbox_messages" DROP CONSTRAINT "outbox_messages_channel_check";
--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_channel_check" CHECK ("outbox_messages"."channel" in ('email', 'sms', 'push', 'whatsapp'));
--> statement-breakpoint
ALTER TABLE "location_requests" ADD COLUMN "sent_by_whatsapp" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "location_requests" ADD COLUMN "whatsapp_fallback" text;
--> statement-breakpoint
ALTER TABLE "location_requests" ADD CONSTRAINT "location_requests_whatsapp_fallback_check" CHECK ("location_requests"."whatsapp_fallback" in ('sms', 'limit', 'opted-out'));
