import { apiPost } from '@kabari/shared/api/api-client';
import type { ApiData } from '@kabari/shared/api/api-types';
import type { Locale } from '@kabari/shared/i18n/locale';

/** POST /api/v1/personnal/getPaidAmount: the operator's price for a locale (amounts in the major unit). */
export type PaymentTerms = ApiData<typeof paymentTermsPath, 'post'>;

export const paymentTermsPath = '/api/v1/personnal/getPaidAmount';

export function fetchPaymentTerms(locale: Locale): Promise<PaymentTerms> {
  return apiPost(paymentTermsPath, { locale }, { toastErrors: false });
}

/** A lower first-day charge is the new-user offer; with none, no notice is shown. */
export function hasNewUserDiscount(terms: PaymentTerms): boolean {
  return terms.firstDayDebitAmount < terms.amount;
}

// Money in English as en-US writes it: "$0.99" (en-GB would write "US$0.99").
const intlLocale = (locale: Locale) => (locale === 'id' ? 'id-ID' : 'en-US');

/** Amounts come in the major unit (1.99, 49000): whole amounts without decimals, others with two. */
export function formatMoney(amount: number, currencyCode: string, locale: Locale): string {
  const digits = Number.isInteger(amount) ? 0 : 2;
  return new Intl.NumberFormat(intlLocale(locale), {
    style: 'currency',
    currency: currencyCode,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(amount);
}

// Stripe counts most currencies in hundredths (rupiah too); these in whole units, and the three-decimal ones below in
// thousandths (https://docs.stripe.com/currencies).
const zeroDecimalCurrencies = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
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

const threeDecimalCurrencies = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

/** An amount in the API's major units as Stripe counts it (Rp 449.000 → 44900000, $4.99 → 499). */
export function toMinorUnits(amount: number, currencyCode: string): number {
  const code = currencyCode.toUpperCase();
  const digits = zeroDecimalCurrencies.has(code) ? 0 : threeDecimalCurrencies.has(code) ? 3 : 2;
  return Math.round(amount * 10 ** digits);
}
