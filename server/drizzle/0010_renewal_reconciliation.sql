-- A scheduled renewal whose provider left the charge pending is asked about by the reconciliation job when its
-- webhook does not come: checked_at is when an instance last asked (claimed with a skip-locked lock).
ALTER TABLE "payments" ADD COLUMN "checked_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "payments_pending_idx" ON "payments" USING btree ("created_at") WHERE "payments"."state" = 'pending';
