// How a shared position's place is written for a reader (docs/api-v1.md, positions). The server stores the parts
// of the place; each reader sees them in their own language. Used by the recipient's page, the requester's map and
// history. The server builds on its own (no shared workspace): its English twin for the stored `address` is
// server/src/geo/place.ts.
import type { ApiData } from '../api/api-types';
import { countryName } from '../i18n/country-name';
import type { Locale } from '../i18n/locale';

/** The parts of a place: names as the place itself writes them, the country as an ISO 3166-1 alpha-2 code. */
export type PlaceParts = NonNullable<ApiData<'/api/v1/requests/{id}/positions', 'get'>['items'][number]['place']>;

/** "Bogor, Indonesia", "12 km from Bogor, Indonesia" / "12 km dari Bogor, Indonesia"; null when nothing is known. */
export function placeAddress(place: PlaceParts, locale: Locale): string | null {
  const country = place.countryCode ? countryName(place.countryCode, locale) : null;
  const region = place.region && place.region !== place.name ? place.region : null;
  const written = [place.name, region, country].filter(Boolean).join(', ');
  if (!written) return null;
  if (place.distanceKm == null || !place.name) return written;
  return locale === 'id' ? `${place.distanceKm} km dari ${written}` : `${place.distanceKm} km from ${written}`;
}

/**
 * A position's address for a reader: from its place parts when it has them, else the address text as stored
 * (positions from before the parts were kept, written in English).
 */
export function positionAddress(
  position: { address: string | null; place?: PlaceParts | null },
  locale: Locale,
): string | null {
  return position.place ? placeAddress(position.place, locale) : position.address;
}
