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
