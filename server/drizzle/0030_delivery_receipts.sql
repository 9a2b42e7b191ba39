-- Delivery receipts: the provider's reference for each message it took (Twilio's message SID, which its status
-- callbacks name), and the furthest state those receipts reported, with the provider's error code for a failure.
ALTER TABLE "outbox_messages" ADD COLUMN "provider_ref" text;
--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "receipt" text;
--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "receipt_error_code" text;
--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "receipt_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_receipt_check" CHECK ("outbox_messages"."receipt" in ('queued', 'sent', 'delivered', 'read', 'failed', 'undelivered'));
--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_messages_provider_ref_unique" ON "outbox_messages" USING btree ("transport","provider_ref") WHERE "outbox_messages"."provider_ref" is not null;
