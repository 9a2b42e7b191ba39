// Amounts are integers in the currency's minor unit on the server and in the database, and decimal numbers in the
// major unit in the API and the browser (29.99, 449000). One table says how many decimals each side of a payment
// counts a currency in, where that differs from the usual: Kabari's (rupiah and the like are used without decimals
// in practice, though ISO 4217 lists two for IDR) and Stripe's (https://docs.stripe.com/currencies: hundredths
// whatever ISO 4217 or ICU say, rupiah and krónur included, but whole units or thousandths for the currencies
// below). A currency not listed: Kabari counts it in the decimals ICU's copy of ISO 4217 gives it, Stripe in two.
const CURRENCY_DIGITS: Readonly<Record<string, { readonly kabari: number | 'iso'; readonly stripe: number }>> = {
  BHD: { kabari: 'iso', stripe: 3 },
  BIF: { kabari: 0, stripe: 0 },
  CLP: { kabari: 0, stripe: 0 },
  DJF: { kabari: 0, stripe: 0 },
  GNF: { kabari: 0, stripe: 0 },
  IDR: { kabari: 0, stripe: 2 },
  ISK: { kabari: 0, stripe: 2 },
  JOD: { kabari: 'iso', stripe: 3 },
  JPY: { kabari: 0, stripe: 0 },
  KMF: { kabari: 0, stripe: 0 },
  KRW: { kabari: 0, stripe: 0 },
  KWD: { kabari: 'iso', stripe: 3 },
  MGA: { kabari: 0, stripe: 0 },
  OMR: { kabari: 'iso', stripe: 3 },
  PYG: { kabari: 0, stripe: 0 },
  RWF: { kabari: 0, stripe: 0 },
  TND: { kabari: 'iso', stripe: 3 },
  UGX: { kabari: 0, stripe: 0 },
  VND: { kabari: 0, stripe: 0 },
  VUV: { kabari: 0, stripe: 0 },
  XAF: { kabari: 0, stripe: 0 },
  XOF: { kabari: 0, stripe: 0 },
  XPF: { kabari: 0, stripe: 0 },
};

// Read when first asked, not when the module loads: the browser imports this module for formatMoney alone.
let knownCurrencies: ReadonlySet<string> | undefined;

export function isKnownCurrency(code: string): boolean {
  knownCurrencies ??= new Set(Intl.supportedValuesOf('currency'));
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
  const digits = CURRENCY_DIGITS[currency]?.kabari ?? 'iso';
  return digits === 'iso' ? isoDigits(currency) : digits;
}

/** The decimals Stripe counts the currency's amounts in. */
export function stripeDigits(currency: string): number {
  return CURRENCY_DIGITS[currency]?.stripe ?? 2;
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

/**
 * An amount in the major unit as the reader's language writes it, the same in an email and on a page: a whole
 * amount without decimals ("$10", "Rp 449.000"), any other with all the currency's ("$29.99", "KWD 1.250").
 * English as en-US writes it: "$0.99" (en-GB would write "US$0.99").
 */
export function formatMoney(amount: number, currency: string, locale: 'en' | 'id'): string {
  const digits = Number.isInteger(amount) ? 0 : minorDigits(currency);
  return new Intl.NumberFormat(locale === 'id' ? 'id-ID' : 'en-US', {
    style: 'currency',
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(amount);
}
