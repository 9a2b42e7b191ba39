import { messagesIn, messagesOf, waitText, type Locale, type LocalizedText, type MessageParams } from '../lib/messages';

/**
 * What the location-request routes (requests, links) say to people, in both languages. Texts without `{…}` are
 * also what the schemas give zod, so a validation error is answered in the caller's language too.
 */
export const sayRequests = messagesOf('requests');
const commonText = messagesIn('common');

/** A wait of hours in words ("7 hours 5 minutes", "7 jam 5 menit"); under 90 minutes, as waitText says it. */
export function hoursText(seconds: number, locale: Locale): string {
  if (seconds < 90 * 60) return waitText(seconds, locale);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.ceil((seconds - hours * 3600) / 60);
  const inHours = commonText(locale, hours === 1 ? 'waitHour' : 'waitHours', { hours });
  if (minutes === 0) return inHours;
  return `${inHours} ${commonText(locale, minutes === 1 ? 'waitMinute' : 'waitMinutes', { minutes })}`;
}

/** A refusal whose parameters read differently in each language (a wait in hours, country names). */
export function sayRequestsIn(
  key: Parameters<typeof sayRequests>[0],
  params: (locale: Locale) => MessageParams,
): LocalizedText {
  return { en: sayRequests(key, params('en')).en, id: sayRequests(key, params('id')).id };
}
