import type { Locale } from './locale';

/** A time as the reader's language writes it, in their own time zone, e.g. "22 Nov 2026, 14:05"; shown as given if it is not a time. */
export function formatTime(iso: string, locale: Locale): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale === 'id' ? 'id-ID' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(date);
}
