import type { Locale } from './locale';

const namesByLocale = new Map<Locale, Intl.DisplayNames | null>();

function displayNames(locale: Locale): Intl.DisplayNames | null {
  if (!namesByLocale.has(locale)) {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([locale], { type: 'region' });
    } catch {
      // A runtime without region names: codes are shown as they are.
    }
    namesByLocale.set(locale, names);
  }
  return namesByLocale.get(locale) ?? null;
}

/** A country's name in the reader's language from its ISO 3166-1 alpha-2 code; the code itself if unknown. */
export function countryName(code: string, locale: Locale): string {
  try {
    return displayNames(locale)?.of(code.toUpperCase()) ?? code;
  } catch {
    // Not a valid region code: shown as stored rather than failing the page.
    return code;
  }
}
