-- The cache was keyed by the rounded position itself; it is now keyed by an HMAC of it (reverse-geocode.ts).
-- The old rows could be read back into positions: a cache may simply be emptied.
DELETE FROM "geocode_cache";
