import type { Place } from '../db/column-values';

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });

function countryName(code: string): string {
  try {
    return countryNames.of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * The English text of a place, kept in positions.address for readers that do not know the parts (and as the
 * API's `address`): "Jakarta, Indonesia", "12 km from Bogor, Indonesia".
 */
export function englishAddress(place: Place | null): string | null {
  if (!place) return null;
  const region = place.region && place.region !== place.name ? place.region : null;
  const written = [place.name, region, place.countryCode ? countryName(place.countryCode) : null]
    .filter(Boolean)
    .join(', ');
  if (!written) return null;
  return place.distanceKm != null && place.name ? `${place.distanceKm} km from ${written}` : written;
}
