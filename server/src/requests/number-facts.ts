import { parsePhoneNumberFromString, type CountryCode, type PhoneNumber } from 'libphonenumber-js/max';
import { carrier, geocoder, timezones } from 'libphonenumber-geo-carrier';
import type { Locale } from '../lib/messages';

export type LineType =
  | 'mobile'
  | 'fixed_line'
  | 'fixed_line_or_mobile'
  | 'toll_free'
  | 'premium_rate'
  | 'shared_cost'
  | 'voip'
  | 'personal_number'
  | 'pager'
  | 'uan'
  | 'voicemail';

/** What public numbering-plan data says about a number. Unknown facts are null, never guessed. */
export interface NumberFacts {
  e164: string;
  valid: boolean;
  countryCode: string | null;
  countryName: string | null;
  region: string | null;
  carrier: string | null;
  timeZones: string[] | null;
  lineType: LineType | null;
}

export type ParsedNumber = { kind: 'empty' } | { kind: 'unparseable' } | { kind: 'parsed'; phone: PhoneNumber };

/** Parses what a person typed: E.164 (+62…), or a national number with the country chosen beside it. */
export function parseNumber(input: string | undefined, country?: string): ParsedNumber {
  const text = input?.trim() ?? '';
  if (!/\d/.test(text)) return text === '' ? { kind: 'empty' } : { kind: 'unparseable' };
  const phone = parsePhoneNumberFromString(text, country ? { defaultCountry: country as CountryCode } : undefined);
  return phone ? { kind: 'parsed', phone } : { kind: 'unparseable' };
}

/** Whether an SMS can reach the number as far as the numbering plan knows (an unknown type is not held against it). */
export function canReceiveSms(facts: NumberFacts): boolean {
  return facts.valid && (facts.lineType === null || ['mobile', 'fixed_line_or_mobile'].includes(facts.lineType));
}

/** A bounded least-recently-used cache: a Map keeps insertion order, so the first key is the oldest. */
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly maxEntries: number) {}

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

// libphonenumber-geo-carrier reads its BSON data files from disk on every call: cache its answers. Promises are
// cached, so concurrent lookups of one number read the files once.
const geoCache = new LruCache<string, Promise<Pick<NumberFacts, 'region' | 'carrier' | 'timeZones'>>>(5000);

async function geoFacts(phone: PhoneNumber, locale: Locale) {
  const key = `${phone.number}|${locale}`;
  let facts = geoCache.get(key);
  if (!facts) {
    // Carrier names are brands: the data has them in English (its fallback) for these ranges.
    facts = Promise.all([geocoder(phone, locale), carrier(phone, 'en'), timezones(phone)]).then(
      ([region, carrierName, zones]) => ({
        region: region || null,
        carrier: carrierName || null,
        timeZones: zones && zones.length > 0 && !zones.includes('Etc/Unknown') ? zones : null,
      }),
    );
    // A failed read is not remembered: the next lookup tries again.
    facts.catch(() => geoCache.delete(key));
    geoCache.set(key, facts);
  }
  return facts;
}

const displayNames = new Map<Locale, Intl.DisplayNames>();

function countryName(code: string | undefined, locale: Locale): string | null {
  if (!code) return null;
  let names = displayNames.get(locale);
  if (!names) {
    names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' });
    displayNames.set(locale, names);
  }
  return names.of(code) ?? null;
}

/** The facts for a parsed number; region and country names in the reader's language where the data has it. */
export async function numberFacts(phone: PhoneNumber, locale: Locale): Promise<NumberFacts> {
  const valid = phone.isValid();
  const type = valid ? phone.getType() : undefined;
  const geo = valid ? await geoFacts(phone, locale) : { region: null, carrier: null, timeZones: null };
  return {
    e164: phone.number,
    valid,
    countryCode: phone.country ?? null,
    countryName: countryName(phone.country, locale),
    ...geo,
    lineType: type ? (type.toLowerCase() as LineType) : null,
  };
}
