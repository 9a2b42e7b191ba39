-- The notices a subscriber turned off (a recipient shared, declined, stopped, withdrew; live sharing ended), per
-- channel. Every notice is on until turned off, so existing accounts need no rows.
CREATE TABLE "notice_opt_outs" (
	"user_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"notice" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notice_opt_outs_user_id_channel_notice_pk" PRIMARY KEY("user_id","channel","notice"),
	CONSTRAINT "notice_opt_outs_channel_check" CHECK ("notice_opt_outs"."channel" in ('email')),
	CONSTRAINT "notice_opt_outs_notice_check" CHECK ("notice_opt_outs"."notice" in ('shared', 'declined', 'stopped', 'withdrawn', 'live_ended'))
);
--> statement-breakpoint
ALTER TABLE "notice_opt_outs" ADD CONSTRAINT "notice_opt_outs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- The live windows the live-endings job looks at every half minute: few requests have one at a time.
CREATE INDEX "location_requests_live_until_idx" ON "location_requests" USING btree ("live_until") WHERE "location_requests"."live_until" is not null;
