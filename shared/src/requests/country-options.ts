import type { Locale } from '../i18n/locale';
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

function displayNames(locale: Locale): Intl.DisplayNames | null {
  try {
    return new Intl.DisplayNames([locale], { type: 'region' });
  } catch {
    return null;
  }
}

export function countryName(code: string, locale: Locale): string {
  return displayNames(locale)?.of(code) ?? code;
}

const cache = new Map<Locale, CountryOption[]>();

/** Every country libphonenumber knows, named in the page's language, in that language's alphabetical order. */
export function countryOptions(locale: Locale): CountryOption[] {
  const cached = cache.get(locale);
  if (cached) return cached;
  const names = displayNames(locale);
  const collator = new Intl.Collator(locale);
  const options = Object.entries(callingCodes)
    .map(([code, callingCode]) => ({ code, callingCode, name: names?.of(code) ?? code }))
    .sort((a, b) => collator.compare(a.name, b.name));
  cache.set(locale, options);
  return options;
}
