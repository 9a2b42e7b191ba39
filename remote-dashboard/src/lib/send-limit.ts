import type { Locale } from '@kabari/shared/i18n/locale';

/** A time as the reader's language writes it, in their own time zone, e.g. "22 Nov 2026, 14:05". */
export function formatTime(iso: string, locale: Locale): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale === 'id' ? 'id-ID' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(date);
}

/** A next-allowed time still ahead (a past one means: may send now). */
export function stillAhead(iso: string | null | undefined, now = Date.now()): iso is string {
  return typeof iso === 'string' && new Date(iso).getTime() > now;
}
