-- The opt-out key of a request's target (an HMAC keyed with the server's secret, written by the app with the
-- request), so that the tombstone a deletion leaves holds that key and never a plain hash of the number.
ALTER TABLE "location_requests" ADD COLUMN "target_hash" text;--> statement-breakpoint
-- The requests stored before it, which the retention job gives their key: found without reading the whole table.
CREATE INDEX "location_requests_unkeyed_target_idx" ON "location_requests" USING btree ("id") WHERE "target" IS NOT NULL AND "target_hash" IS NULL;--> statement-breakpoint
-- A tombstone outlives an account only as hashes: the deleted account's id is cleared from it.
ALTER TABLE "link_tombstones" ALTER COLUMN "requester_id" DROP NOT NULL;--> statement-breakpoint
-- A message deleted as soon as it is delivered (the notice that an account was deleted, to an address we no
-- longer keep).
ALTER TABLE "outbox_messages" ADD COLUMN "erase_when_sent" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- The retention job deletes by age: these keep its passes from reading whole tables.
CREATE INDEX "visitor_reports_created_at_idx" ON "visitor_reports" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "auth_throttles_window_started_at_idx" ON "auth_throttles" USING btree ("window_started_at");--> statement-breakpoint
CREATE INDEX "send_limits_last_sent_at_idx" ON "send_limits" USING btree ("last_sent_at");--> statement-breakpoint
-- The tombstone takes the request's keyed target hash. A request stored before the column existed has none until
-- the retention job re-keys it; meanwhile its tombstone keeps the old plain hash, which the opt-out lookups still
-- recognise, so no opt-out through an old message is lost.
CREATE OR REPLACE FUNCTION "location_request_tombstone"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "link_tombstones" ("token_hash", "requester_id", "channel", "target_hash")
	VALUES (
		encode(sha256(convert_to(OLD."token", 'UTF8')), 'hex'),
		OLD."user_id",
		OLD."channel",
		CASE WHEN OLD."target" IS NULL THEN NULL
			ELSE coalesce(OLD."target_hash", encode(sha256(convert_to(lower(btrim(OLD."target")), 'UTF8')), 'hex')) END
	)
	ON CONFLICT ("token_hash") DO NOTHING;
	RETURN OLD;
END;
$$;
