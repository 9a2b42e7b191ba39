-- The requester looking at a request's map: one row per opening, its last_seen_at moved on while the map stays
-- open. The recipient's page shows when they last looked and how often today.
CREATE TABLE "map_views" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "map_views_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"request_id" uuid NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "map_views" ADD CONSTRAINT "map_views_request_id_location_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."location_requests"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "map_views_request_id_idx" ON "map_views" USING btree ("request_id","opened_at");
--> statement-breakpoint
-- A live window's last sign of life from the recipient's page, and when and why the last window ended early.
ALTER TABLE "location_requests" ADD COLUMN "live_heard_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "location_requests" ADD COLUMN "live_ended_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "location_requests" ADD COLUMN "live_end_reason" text;
--> statement-breakpoint
ALTER TABLE "location_requests" ADD CONSTRAINT "location_requests_live_end_reason_check" CHECK ("location_requests"."live_end_reason" in ('unsupported', 'denied', 'failed', 'disabled', 'silent'));
--> statement-breakpoint
-- A subscription a dispute ended keeps the status and period end it had, for a dispute the operator wins.
ALTER TABLE "subscriptions" ADD COLUMN "disputed_payment_id" uuid;
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "status_before_dispute" text;
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "valid_until_before_dispute" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_status_before_dispute_check" CHECK ("subscriptions"."status_before_dispute" in ('trial', 'active', 'cancelled', 'expired', 'unsubscribed'));
