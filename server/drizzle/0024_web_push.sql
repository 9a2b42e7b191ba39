-- Notifications by Web Push: the browsers where a subscriber turned them on, a third outbox channel, and a second
-- notice channel whose notices can be turned off one by one like the emails.
CREATE TABLE "push_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "push_subscriptions_endpoint_unique" ON "push_subscriptions" USING btree ("endpoint");
--> statement-breakpoint
CREATE INDEX "push_subscriptions_user_idx" ON "push_subscriptions" USING btree ("user_id");
--> statement-breakpoint
ALTER TABLE "outbox_messages" DROP CONSTRAINT "outbox_messages_channel_check";
--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_channel_check" CHECK ("outbox_messages"."channel" in ('email', 'sms', 'push'));
--> statement-breakpoint
ALTER TABLE "notice_opt_outs" DROP CONSTRAINT "notice_opt_outs_channel_check";
--> statement-breakpoint
ALTER TABLE "notice_opt_outs" ADD CONSTRAINT "notice_opt_outs_channel_check" CHECK ("notice_opt_outs"."channel" in ('email', 'push'));
