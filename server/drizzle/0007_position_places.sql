-- The parts of a position's place (name, region, country code, distance), each reader formatting them in their
-- own language; `address` stays as the English text older readers show. The cache keeps the parts too.
ALTER TABLE "positions" ADD COLUMN "place" jsonb;--> statement-breakpoint
ALTER TABLE "geocode_cache" ADD COLUMN "place" jsonb;--> statement-breakpoint
ALTER TABLE "geocode_cache" DROP COLUMN "address";
