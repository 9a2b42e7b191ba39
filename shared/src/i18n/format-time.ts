import type { Locale } from './locale';

// English dates are written day first in every app and email ("22 Nov 2026"), as Indonesian ones are.
const dateLocale = (locale: Locale) => (locale === 'id' ? 'id-ID' : 'en-GB');

/**
 * A time as the reader's language writes it, in their own time zone, e.g. "22 Nov 2026, 14:05"; nothing for no
 * time, and shown as given if it is not a time.
 */
export function formatTime(iso: string | null | undefined, locale: Locale): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(dateLocale(locale), { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** A day in words, e.g. "22 November 2026"; nothing for no date, and shown as given if it is not a date. */
export function formatDay(iso: string | null | undefined, locale: Locale): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(dateLocale(locale), { dateStyle: 'long' }).format(date);
}
