CREATE TABLE "link_tombstones" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"requester_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"target_hash" text,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "abuse_reports" ADD COLUMN "requester_id" uuid;--> statement-breakpoint
CREATE INDEX "link_tombstones_deleted_at_idx" ON "link_tombstones" USING btree ("deleted_at");--> statement-breakpoint
UPDATE "abuse_reports" SET "requester_id" = "location_requests"."user_id" FROM "location_requests" WHERE "location_requests"."id" = "abuse_reports"."request_id";--> statement-breakpoint
-- Every way a request is deleted (by its requester, or with the account) leaves its tombstone. The hashes are
-- those the share routes compute: sha256 hex of the token, and of the trimmed lower-cased target (opt-out-hash.ts).
CREATE FUNCTION "location_request_tombstone"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "link_tombstones" ("token_hash", "requester_id", "channel", "target_hash")
	VALUES (
		encode(sha256(convert_to(OLD."token", 'UTF8')), 'hex'),
		OLD."user_id",
		OLD."channel",
		CASE WHEN OLD."target" IS NULL THEN NULL
			ELSE encode(sha256(convert_to(lower(btrim(OLD."target")), 'UTF8')), 'hex') END
	)
	ON CONFLICT ("token_hash") DO NOTHING;
	RETURN OLD;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "location_requests_tombstone" BEFORE DELETE ON "location_requests"
	FOR EACH ROW EXECUTE FUNCTION "location_request_tombstone"();
