-- Abuse reports: one per link and reporting browser, a few per link, and one kept copy of a voice note's audio
-- however many reports cite it (a link reported over and over used to store the note again each time).
ALTER TABLE "abuse_reports" ADD COLUMN "token_hash" text;
--> statement-breakpoint
ALTER TABLE "abuse_reports" ADD COLUMN "reporter_key" text;
--> statement-breakpoint
CREATE UNIQUE INDEX "abuse_reports_token_reporter_unique" ON "abuse_reports" USING btree ("token_hash","reporter_key");
--> statement-breakpoint
CREATE INDEX "abuse_reports_request_id_idx" ON "abuse_reports" USING btree ("request_id") WHERE "abuse_reports"."request_id" is not null;
--> statement-breakpoint
CREATE INDEX "abuse_reports_created_at_idx" ON "abuse_reports" USING btree ("created_at");
--> statement-breakpoint
CREATE TABLE "abuse_report_notes" (
	"report_id" uuid PRIMARY KEY NOT NULL,
	"voice_note_id" uuid NOT NULL
);
--> statement-breakpoint
ALTER TABLE "abuse_report_notes" ADD CONSTRAINT "abuse_report_notes_report_id_abuse_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."abuse_reports"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "abuse_report_notes" ADD CONSTRAINT "abuse_report_notes_voice_note_id_voice_notes_id_fk" FOREIGN KEY ("voice_note_id") REFERENCES "public"."voice_notes"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "abuse_report_notes_voice_note_idx" ON "abuse_report_notes" USING btree ("voice_note_id");
--> statement-breakpoint
-- The link of each report whose request is still there; reports of a request deleted since stay without one.
UPDATE "abuse_reports" SET "token_hash" = "location_requests"."token_hash"
FROM "location_requests" WHERE "location_requests"."id" = "abuse_reports"."request_id";
--> statement-breakpoint
-- Each report cites the copy it kept...
INSERT INTO "abuse_report_notes" ("report_id", "voice_note_id")
SELECT "report_id", "id" FROM "voice_notes" WHERE "report_id" IS NOT NULL;
--> statement-breakpoint
-- ...then the reports of one link all cite its oldest copy.
UPDATE "abuse_report_notes" SET "voice_note_id" = "kept"."voice_note_id"
FROM "abuse_reports",
     (SELECT DISTINCT ON ("abuse_reports"."token_hash") "abuse_reports"."token_hash", "abuse_report_notes"."voice_note_id"
      FROM "abuse_report_notes"
      JOIN "abuse_reports" ON "abuse_reports"."id" = "abuse_report_notes"."report_id"
      JOIN "voice_notes" ON "voice_notes"."id" = "abuse_report_notes"."voice_note_id"
      WHERE "abuse_reports"."token_hash" IS NOT NULL
      ORDER BY "abuse_reports"."token_hash", "voice_notes"."created_at", "voice_notes"."id") AS "kept"
WHERE "abuse_reports"."id" = "abuse_report_notes"."report_id" AND "kept"."token_hash" = "abuse_reports"."token_hash";
--> statement-breakpoint
ALTER TABLE "voice_notes" DROP CONSTRAINT "voice_notes_owner_check";
--> statement-breakpoint
ALTER TABLE "voice_notes" DROP CONSTRAINT "voice_notes_report_id_abuse_reports_id_fk";
--> statement-breakpoint
DROP INDEX "voice_notes_report_idx";
--> statement-breakpoint
ALTER TABLE "voice_notes" DROP COLUMN "report_id";
--> statement-breakpoint
-- The copies no report cites any more (their audio goes with them).
DELETE FROM "voice_notes" WHERE "kind" = 'report'
  AND NOT EXISTS (SELECT 1 FROM "abuse_report_notes" WHERE "abuse_report_notes"."voice_note_id" = "voice_notes"."id");
--> statement-breakpoint
ALTER TABLE "voice_notes" ADD CONSTRAINT "voice_notes_report_copy_check" CHECK ("voice_notes"."kind" <> 'report' or ("voice_notes"."user_id" is null and "voice_notes"."request_id" is null));
