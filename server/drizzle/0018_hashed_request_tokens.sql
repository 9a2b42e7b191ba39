-- A request's token is kept only as its sha256 (the lookup key of the consent routes) and, for a trackable link,
-- sealed with a key derived from the server's secret: a copy of the database opens no consent link.
ALTER TABLE "location_requests" ADD COLUMN "token_hash" text;--> statement-breakpoint
ALTER TABLE "location_requests" ADD COLUMN "token_cipher" text;--> statement-breakpoint
UPDATE "location_requests" SET "token_hash" = encode(sha256(convert_to("token", 'UTF8')), 'hex');--> statement-breakpoint
ALTER TABLE "location_requests" ALTER COLUMN "token_hash" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "location_requests_token_hash_unique" ON "location_requests" USING btree ("token_hash");--> statement-breakpoint
DROP INDEX "location_requests_token_unique";--> statement-breakpoint
-- Sealing needs the secret, which SQL does not hold: a link's plain token waits in legacy_token until the server
-- starts (sealLegacyLinkTokens), which seals and clears it. An SMS or email token is needed by nobody but its
-- recipient: cleared now.
ALTER TABLE "location_requests" RENAME COLUMN "token" TO "legacy_token";--> statement-breakpoint
ALTER TABLE "location_requests" ALTER COLUMN "legacy_token" DROP NOT NULL;--> statement-breakpoint
UPDATE "location_requests" SET "legacy_token" = NULL WHERE "channel" <> 'link';--> statement-breakpoint
CREATE INDEX "location_requests_legacy_token_idx" ON "location_requests" USING btree ("id") WHERE "legacy_token" IS NOT NULL;--> statement-breakpoint
-- The tombstone of a deleted request takes the hash the request already holds.
CREATE OR REPLACE FUNCTION "location_request_tombstone"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "link_tombstones" ("token_hash", "requester_id", "channel", "target_hash")
	VALUES (
		OLD."token_hash",
		OLD."user_id",
		OLD."channel",
		CASE WHEN OLD."target" IS NULL THEN NULL
			ELSE coalesce(OLD."target_hash", encode(sha256(convert_to(lower(btrim(OLD."target")), 'UTF8')), 'hex')) END
	)
	ON CONFLICT ("token_hash") DO NOTHING;
	RETURN OLD;
END;
$$;--> statement-breakpoint
-- Live events no longer carry a link's URL (the requester's list and the create answer do): the stored ones lose it.
UPDATE "request_events" SET "payload" = jsonb_set("payload", '{url}', 'null'::jsonb)
	WHERE "type" = 'request' AND jsonb_typeof("payload" -> 'url') = 'string';--> statement-breakpoint
-- A request's message that a provider has taken (or refused for good) keeps its text without the token; in the
-- local outbox (transport 'local') it stays whole, since that is where a local trial opens it.
UPDATE "outbox_messages" SET
		"body_text" = regexp_replace("body_text", 'token=[A-Za-z0-9_-]+', 'token=[token]', 'g'),
		"body_html" = regexp_replace("body_html", 'token=[A-Za-z0-9_-]+', 'token=[token]', 'g')
	WHERE ("state" = 'failed' OR ("state" = 'sent' AND "transport" IS DISTINCT FROM 'local'))
		AND "id" IN (SELECT "message_id" FROM "location_requests" WHERE "message_id" IS NOT NULL);
