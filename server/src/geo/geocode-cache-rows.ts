import { inArray, sql } from 'drizzle-orm';
import type { Place } from '../db/column-values';
import type { DatabaseExecutor } from '../db/open-database';
import { geocodeCache, positions } from '../db/schema/location-requests';

// The reverse geocoder's cache, as rows: every query of reverse-geocode.ts and cached-addresses.ts.

/** The cached answer for a key: `place` null when the service knew no address there; undefined when not cached. */
export async function cachedPlace(db: DatabaseExecutor, key: string): Promise<{ place: Place | null } | undefined> {
  const [cached] = await db
    .select()
    .from(geocodeCache)
    .where(sql`${geocodeCache.key} = ${key}`);
  return cached;
}

/** Caches an answer, unless one is cached for the key already. */
export async function cachePlace(db: DatabaseExecutor, key: string, place: Place | null): Promise<void> {
  await db.insert(geocodeCache).values({ key, place }).onConflictDoNothing();
}

/** Where the positions of these requests were. */
export async function positionCoordinates(
  db: DatabaseExecutor,
  requestIds: string[],
): Promise<{ latitude: number; longitude: number }[]> {
  return db
    .select({ latitude: positions.latitude, longitude: positions.longitude })
    .from(positions)
    .where(inArray(positions.requestId, requestIds));
}

export async function deleteCachedPlaces(db: DatabaseExecutor, keys: string[]): Promise<void> {
  await db.delete(geocodeCache).where(inArray(geocodeCache.key, keys));
}
