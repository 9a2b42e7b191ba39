import { createHmac } from 'node:crypto';
import type { Database } from '../db/open-database';
import type { Place } from '../db/column-values';
import { cachedPlace, cachePlace } from './geocode-cache-rows';
import { openPlaceIndex, type PlaceIndex, type WarningLog } from './place-index';

export interface ReverseGeocoder {
  /** The place of a position: a street address from Nominatim when configured, else the nearest named place. */
  placeOf(latitude: number, longitude: number): Promise<Place | null>;
  /** The geocode_cache key of a position (null without a cache): Stop and erase deletes the answer with it. */
  cacheKeyOf(latitude: number, longitude: number): string | null;
  /** It answers from this process's memory (the bundled places), never from a service or the database. */
  answersLocally?: boolean;
}

let bundledIndex: Promise<PlaceIndex> | undefined;

/**
 * The nearest named place from the bundled GeoNames data: Jakarta, Indonesia, or 12 km from Bogor when the
 * position is not in it (the data holds places, not streets). Its index opens on the first position that needs it.
 */
export async function nearestPlace(latitude: number, longitude: number, log: WarningLog): Promise<Place | null> {
  if (!bundledIndex) {
    const opening = openPlaceIndex(log);
    bundledIndex = opening;
    // A failure is not kept: the next position tries again.
    opening.catch(() => {
      if (bundledIndex === opening) bundledIndex = undefined;
    });
  }
  return (await bundledIndex).nearest(latitude, longitude);
}

/** Nominatim's usage policy: at most one request a second, an identifying User-Agent, answers cached. */
const NOMINATIM_SPACING_MS = 1000;
const NOMINATIM_TIMEOUT_MS = 5000;

export interface NominatimOptions {
  url: string;
  userAgent: string;
  /** Keys the cache: its keys are HMACs of the rounded position, so they cannot be turned back into one. */
  keySecret: Buffer;
  db: Database;
  log: WarningLog;
  fetch?: typeof fetch;
}

/** A reverse geocoder: Nominatim when a URL is given (falling back to the bundled data), else the bundled data. */
export function createReverseGeocoder(
  options: NominatimOptions | { url: undefined; log: WarningLog },
): ReverseGeocoder {
  const { log } = options;
  if (!options.url) {
    return {
      placeOf: (lat, lon) => nearestPlace(lat, lon, log),
      cacheKeyOf: () => null,
      answersLocally: true,
    };
  }
  const { url, userAgent, db, keySecret } = options as NominatimOptions;
  // About 11 m: near-identical positions share one answer. The key is an HMAC of the rounded position.
  const cacheKeyOf = (latitude: number, longitude: number) =>
    'nominatim:' +
    createHmac('sha256', keySecret)
      .update(`${latitude.toFixed(4)},${longitude.toFixed(4)}`)
      .digest('base64url')
      .slice(0, 32);
  const fetchFn = (options as NominatimOptions).fetch ?? fetch;
  // Requests leave this process one at a time, a second apart.
  let queue: Promise<unknown> = Promise.resolve();
  let lastRequestAt = 0;

  const askNominatim = (latitude: number, longitude: number): Promise<Place | null> => {
    const turn = queue.then(async () => {
      const query = new URLSearchParams({
        format: 'jsonv2',
        lat: String(latitude),
        lon: String(longitude),
        zoom: '18',
        // The country comes as a code, named in the reader's language; without accept-language the rest is in
        // the place's own language, which is how its streets are signed.
        addressdetails: '1',
      });
      // A loop, since a timer may fire a little early.
      for (let wait = lastRequestAt + NOMINATIM_SPACING_MS - Date.now(); wait > 0;) {
        await new Promise((resolve) => setTimeout(resolve, wait));
        wait = lastRequestAt + NOMINATIM_SPACING_MS - Date.now();
      }
      const sent = fetchFn(`${url}/reverse?${query}`, {
        headers: { 'User-Agent': userAgent, Accept: 'application/json' },
        signal: AbortSignal.timeout(NOMINATIM_TIMEOUT_MS),
      });
      // Read once the request has left, never before: a pause between the two would shorten the next gap.
      lastRequestAt = Date.now();
      const response = await sent;
      if (!response.ok) throw new Error(`Nominatim answered ${response.status}`);
      const body = (await response.json()) as {
        display_name?: unknown;
        error?: unknown;
        address?: { country?: unknown; country_code?: unknown };
      };
      if (typeof body.display_name === 'string' && body.display_name.trim()) {
        const country = typeof body.address?.country === 'string' ? body.address.country : null;
        const code = typeof body.address?.country_code === 'string' ? body.address.country_code.toUpperCase() : null;
        let name = body.display_name.trim();
        // The country is named by the reader's language instead: dropped from the end when the code is known.
        if (code && country && name.endsWith(`, ${country}`)) name = name.slice(0, -country.length - 2);
        return { name, countryCode: code && /^[A-Z]{2}$/.test(code) ? code : null };
      }
      // {"error": "Unable to geocode"}: a valid answer that there is no address here (the sea, say).
      if (body.error !== undefined) return null;
      throw new Error('Nominatim answered without a display_name');
    });
    queue = turn.catch(() => undefined);
    return turn;
  };

  return {
    cacheKeyOf,
    async placeOf(latitude, longitude) {
      const key = cacheKeyOf(latitude, longitude);
      const cached = await cachedPlace(db, key);
      if (cached) return cached.place ?? nearestPlace(latitude, longitude, log);
      try {
        const place = await askNominatim(latitude, longitude);
        await cachePlace(db, key, place);
        return place ?? nearestPlace(latitude, longitude, log);
      } catch (error) {
        log.warn({ err: error }, 'Reverse geocoding through NOMINATIM_URL failed; using the bundled place data');
        return nearestPlace(latitude, longitude, log);
      }
    },
  };
}
