-- Voice notes: a requester's recorded note sent with a request, a recipient's recorded reply, and the copy an abuse
-- report keeps of the note the recipient heard. The audio itself is in its own table, so that an object store can
-- take its place without touching the rest.
CREATE TABLE "voice_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"request_id" uuid,
	"report_id" uuid,
	"kind" text NOT NULL,
	"media_type" text NOT NULL,
	"duration_ms" integer NOT NULL,
	"byte_size" integer NOT NULL,
	"text" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "voice_notes_kind_check" CHECK ("voice_notes"."kind" in ('request', 'reply', 'report')),
	CONSTRAINT "voice_notes_media_type_check" CHECK ("voice_notes"."media_type" in ('audio/webm', 'audio/ogg', 'audio/mp4', 'audio/mpeg')),
	CONSTRAINT "voice_notes_duration_ms_check" CHECK ("voice_notes"."duration_ms" between 1 and 60500),
	CONSTRAINT "voice_notes_byte_size_check" CHECK ("voice_notes"."byte_size" between 1 and 1048576),
	CONSTRAINT "voice_notes_owner_check" CHECK (("voice_notes"."kind" = 'report') = ("voice_notes"."report_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "voice_note_audio" (
	"voice_note_id" uuid PRIMARY KEY NOT NULL,
	"bytes" bytea NOT NULL
);
--> statement-breakpoint
ALTER TABLE "voice_notes" ADD CONSTRAINT "voice_notes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "voice_notes" ADD CONSTRAINT "voice_notes_request_id_location_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."location_requests"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "voice_notes" ADD CONSTRAINT "voice_notes_report_id_abuse_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."abuse_reports"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "voice_note_audio" ADD CONSTRAINT "voice_note_audio_voice_note_id_voice_notes_id_fk" FOREIGN KEY ("voice_note_id") REFERENCES "public"."voice_notes"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "voice_notes_request_kind_unique" ON "voice_notes" USING btree ("request_id","kind") WHERE "voice_notes"."request_id" is not null;
--> statement-breakpoint
CREATE INDEX "voice_notes_user_created_idx" ON "voice_notes" USING btree ("user_id","created_at");
--> statement-breakpoint
CREATE INDEX "voice_notes_report_idx" ON "voice_notes" USING btree ("report_id") WHERE "voice_notes"."report_id" is not null;
--> statement-breakpoint
CREATE INDEX "voice_notes_created_at_idx" ON "voice_notes" USING btree ("created_at");
