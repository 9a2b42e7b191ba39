import type { Locale, LocalizedText } from '../lib/messages';
import { sayRequestsIn } from './request-messages';
import type { SendLimitsConfig } from './requests-config';

/**
 * Why Kabari does not send an SMS to a number of this country (its region as the numbering plan reads it), or null
 * when it does. The operator pays for every SMS, and the price and the fraud (messages pumped to premium ranges)
 * depend on the country: only the countries in SMS_COUNTRIES are sent to.
 */
export function smsCountryRefusal(limits: SendLimitsConfig, countryCode: string | null): LocalizedText | null {
  if (countryCode && limits.smsCountries.includes(countryCode)) return null;
  return sayRequestsIn('smsCountry', (locale) => ({ countries: countryList(limits.smsCountries, locale) }));
}

/** "Indonesia", "Indonesia or Malaysia", "Indonesia, Malaysia, or Singapore", in the reader's language. */
function countryList(codes: string[], locale: Locale): string {
  const names = new Intl.DisplayNames([locale], { type: 'region' });
  return new Intl.ListFormat(locale, { type: 'disjunction' }).format(codes.map((code) => names.of(code) ?? code));
}
