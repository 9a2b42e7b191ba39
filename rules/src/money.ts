// Amounts are integers in the currency's minor unit. Rupiah and the like are used without decimals in practice
// (ISO 4217 still lists two for IDR), so they count as zero-decimal here; Stripe's own rules are applied where
// amounts go to Stripe.
const ZERO_DECIMAL_CURRENCIES: ReadonlySet<string> = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'IDR',
  'ISK',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);

const knownCurrencies = new Set(Intl.supportedValuesOf('currency'));

export function isKnownCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && knownCurrencies.has(code);
}

// Building an Intl.NumberFormat costs more than the rest of a subscribe/info answer: once per currency.
const isoDigitsByCurrency = new Map<string, number>();

/** The decimals ICU's copy of ISO 4217 (through Intl) gives the currency. */
function isoDigits(currency: string): number {
  const known = isoDigitsByCurrency.get(currency);
  if (known !== undefined) return known;
  const digits =
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  // Intl throws on anything but a three-letter code, so the map holds at most 26³ small entries.
  isoDigitsByCurrency.set(currency, digits);
  return digits;
}

/** The decimals Kabari counts the currency's amounts in. */
export function minorDigits(currency: string): number {
  return ZERO_DECIMAL_CURRENCIES.has(currency) ? 0 : isoDigits(currency);
}

/** "29.99" → 2999 for USD; null when the text has more decimals than the currency holds. */
export function parseMajorAmount(text: string, currency: string): number | null {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) return null;
  const digits = minorDigits(currency);
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > digits) return null;
  return Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}

/** 2999 → 29.99 (the API's amounts are major-unit decimal numbers). */
export function toMajor(minor: number, currency: string): number {
  const digits = minorDigits(currency);
  return Number((minor / 10 ** digits).toFixed(digits));
}

/** "$29.99", "Rp 449.000": for emails, in the reader's language. */
export function formatMoney(minor: number, currency: string, locale: 'en' | 'id'): string {
  return new Intl.NumberFormat(locale === 'id' ? 'id-ID' : 'en-US', {
    style: 'currency',
    currency,
    minimumFractionDigits: minorDigits(currency),
    maximumFractionDigits: minorDigits(currency),
  }).format(toMajor(minor, currency));
}
