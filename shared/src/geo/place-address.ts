// How a shared position's place is written for a reader (docs/api-v1.md, positions). The server stores the parts
// of the place; each reader sees them in their own language. Used by the server (for the English `address` kept
// for older readers), the recipient's page and the requester's map.

/** The parts of a place: names as the place itself writes them, the country as an ISO 3166-1 alpha-2 code. */
export interface PlaceParts {
  /** A town, or a street address from a Nominatim-compatible service; null when only the country is known. */
  name: string | null;
  /** The region (state, province) of an approximate place from the IP address, when it differs from the name. */
  region?: string | null;
  countryCode: string | null;
  /** How far the position is from the named place, in whole kilometres, when it is not in it. */
  distanceKm?: number | null;
}

export type PlaceLocale = 'en' | 'id';

const countryNames = new Map<PlaceLocale, Intl.DisplayNames>();

function countryName(code: string, locale: PlaceLocale): string {
  let names = countryNames.get(locale);
  if (!names) {
    names = new Intl.DisplayNames([locale], { type: 'region' });
    countryNames.set(locale, names);
  }
  try {
    return names.of(code.toUpperCase()) ?? code;
  } catch {
    // Not a valid region code: shown as stored rather than failing the page.
    return code;
  }
}

/** "Bogor, Indonesia", "12 km from Bogor, Indonesia" / "12 km dari Bogor, Indonesia"; null when nothing is known. */
export function placeAddress(place: PlaceParts, locale: PlaceLocale): string | null {
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
  locale: PlaceLocale,
): string | null {
  return position.place ? placeAddress(position.place, locale) : position.address;
}
