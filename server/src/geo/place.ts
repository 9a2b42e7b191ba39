/**
 * The parts of a position's place, stored with it so that each reader sees it in their own language (the apps
 * format it with shared/src/geo/place-address.ts): names as the place writes them, the country as its ISO code.
 */
export interface Place {
  /** A town, or a street address from a Nominatim-compatible service; null when only the country is known. */
  name: string | null;
  /** The region of an approximate place from the IP address, when it differs from the name. */
  region?: string | null;
  /** ISO 3166-1 alpha-2, upper case. */
  countryCode: string | null;
  /** Whole kilometres from the named place, when the position is not in it. */
  distanceKm?: number | null;
}

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
