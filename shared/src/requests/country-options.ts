import type { Locale } from '../i18n/locale';
import { countryName } from '../i18n/country-name';
import { callingCodes } from './calling-codes';

export interface CountryOption {
  /** ISO 3166 alpha-2 (or libphonenumber's region code, e.g. AC). */
  code: string;
  name: string;
  callingCode: string;
}

export const fallbackCountry = 'US';
/** Indonesian pages default to Indonesia: most of their readers call Indonesian numbers. */
export const indonesianPagesCountry = 'ID';

export function isKnownCountry(code: unknown): code is string {
  return typeof code === 'string' && Object.hasOwn(callingCodes, code);
}

const cache = new Map<Locale, CountryOption[]>();

/** Every country libphonenumber knows, named in the page's language, in that language's alphabetical order. */
export function countryOptions(locale: Locale): CountryOption[] {
  const cached = cache.get(locale);
  if (cached) return cached;
  const collator = new Intl.Collator(locale);
  const options = Object.entries(callingCodes)
    .map(([code, callingCode]) => ({ code, callingCode, name: countryName(code, locale) }))
    .sort((a, b) => collator.compare(a.name, b.name));
  cache.set(locale, options);
  return options;
}
