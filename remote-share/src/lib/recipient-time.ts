// The recipient's pages write times themselves rather than through @kabari/shared/i18n/format-time (the same output):
// the host does not load that module, so importing it would cost a page opened from an SMS one more chunk. Until the
// page's script runs a time is written in UTC, saying so: the server that renders the page does not know the
// recipient's time zone, and the browser's first render must match the server's HTML.

function inZone(iso: string, locale: string, inUtc: boolean, options: Intl.DateTimeFormatOptions): string {
  return (
    new Intl.DateTimeFormat(locale === 'id' ? 'id-ID' : 'en-GB', {
      ...options,
      ...(inUtc && { timeZone: 'UTC' }),
    }).format(new Date(iso)) + (inUtc ? ' UTC' : '')
  );
}

/** A day and time ("5 Dec 2026, 09:30"). */
export function recipientDateTime(iso: string, locale: string, inUtc: boolean): string {
  return inZone(iso, locale, inUtc, { dateStyle: 'medium', timeStyle: 'short' });
}

/** The time of day ("09:30"). */
export function recipientClock(iso: string, locale: string, inUtc: boolean): string {
  return inZone(iso, locale, inUtc, { hour: '2-digit', minute: '2-digit' });
}
