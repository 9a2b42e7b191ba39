import type { Place } from '../db/column-values';

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });
/** Each country's name once: ICU's lookup took a few per cent of a live position's CPU time, asked every time. */
const namedCountries = new Map<string, string>();

function countryName(code: string): string {
  let name = namedCountries.get(code);
  if (name === undefined) {
    try {
      name = countryNames.of(code) ?? code;
    } catch {
      name = code;
    }
    // Codes come from the bundled places, the IP database or a geocoding service: a few hundred, kept within bounds.
    if (namedCountries.size < 1000) namedCountries.set(code, name);
  }
  return name;
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
