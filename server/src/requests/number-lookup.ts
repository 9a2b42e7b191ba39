import { HttpError } from '../lib/envelope';
import { sayCommon, type Locale } from '../lib/messages';
import { numberFacts, parseNumber, type NumberFacts } from './number-facts';
import type { SendLimitsConfig } from './requests-config';
import { smsCountryRefusal } from './sms-countries';

/** A number as the searching modal shows it: its public facts, and whether Kabari sends SMS to its country. */
export type NumberLookup = NumberFacts & { smsAllowed: boolean; smsRefusal?: string };

/**
 * Looks up what a person typed: 400 with the form's own message when it is empty or cannot be read as a number;
 * a number that parses but is not valid is answered with `valid: false`. The names are in `locale`.
 */
export async function lookUpNumber(
  limits: SendLimitsConfig,
  query: { number?: string | undefined; country?: string | undefined; locale: Locale },
): Promise<NumberLookup> {
  const parsed = parseNumber(query.number, query.country);
  if (parsed.kind === 'empty') throw new HttpError(400, sayCommon('enterNumber'));
  if (parsed.kind === 'unparseable') throw new HttpError(400, sayCommon('enterValidMobile'));
  const facts = await numberFacts(parsed.phone, query.locale);
  const refusal = smsCountryRefusal(limits, facts.countryCode);
  return { ...facts, smsAllowed: refusal === null, ...(refusal ? { smsRefusal: refusal[query.locale] } : {}) };
}
