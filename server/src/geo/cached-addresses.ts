import type { DatabaseExecutor } from '../db/open-database';
import { deleteCachedPlaces, positionCoordinates } from './geocode-cache-rows';
import type { ReverseGeocoder } from './reverse-geocode';

/**
 * Forgets the street addresses cached for the positions of these requests, before the positions themselves go: an
 * address kept in the cache would outlive what it was looked up for.
 */
export async function forgetCachedAddresses(
  db: DatabaseExecutor,
  geocoder: Pick<ReverseGeocoder, 'cacheKeyOf'>,
  requestIds: string[],
): Promise<void> {
  if (requestIds.length === 0) return;
  const shared = await positionCoordinates(db, requestIds);
  const keys = shared
    .map((position) => geocoder.cacheKeyOf(position.latitude, position.longitude))
    .filter((key): key is string => key !== null);
  if (keys.length > 0) await deleteCachedPlaces(db, keys);
}
