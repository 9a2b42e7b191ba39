-- The sign-up form's own id for each submission: a submission sent again (its answer was lost, or it was sent twice
-- at once) finds the sign-up the first one made instead of paying a second time.
ALTER TABLE "registrations" ADD COLUMN "attempt_id" uuid;
--> statement-breakpoint
CREATE UNIQUE INDEX "registrations_attempt_id_idx" ON "registrations" USING btree ("attempt_id");
