import { apiGet, apiPost } from '@kabari/shared/api/api-client';
import type { ApiBody, ApiData } from '@kabari/shared/api/api-types';
import type { PaymentTerms } from '@kabari/shared/payments/payment-terms';

/** GET /api/v1/personnal/subscribe/info. */
export type SubscriptionInfo = ApiData<'/api/v1/personnal/subscribe/info', 'get'>;
/** A charge of the subscriber's; `refundedAmount`: given back so far (major unit). */
export type PaymentRecord = ApiData<'/api/v1/personnal/payments', 'get'>['items'][number];

const quiet = { toastErrors: false } as const;

export function fetchSubscriptionInfo(): Promise<SubscriptionInfo> {
  return apiGet('/api/v1/personnal/subscribe/info', quiet);
}

/** What paying again costs and how: the subscription's own price and currency, not the pages' current price. */
export function fetchRenewalTerms(): Promise<PaymentTerms> {
  return apiGet('/api/v1/personnal/subscribe/renewal-terms', quiet);
}

export async function fetchPayments(): Promise<PaymentRecord[]> {
  return (await apiGet('/api/v1/personnal/payments', quiet)).items;
}

/** POST subscribe/cancel: the subscription as subscribe/info says it, without the waiting payment. */
export type CancelledSubscription = ApiData<'/api/v1/personnal/subscribe/cancel', 'post'>;

export function cancelSubscription(): Promise<CancelledSubscription> {
  return apiPost('/api/v1/personnal/subscribe/cancel', undefined, quiet);
}

/** POST subscribe/renew: an expired subscriber pays again; the answer's registerId is polled like a sign-up's. */
// PayPal: a second call (registerId, orderId, capture) captures the order the subscriber approved.
export function renewSubscription(
  payment: ApiBody<'/api/v1/personnal/subscribe/renew', 'post'>,
): Promise<ApiData<'/api/v1/personnal/subscribe/renew', 'post'>> {
  return apiPost('/api/v1/personnal/subscribe/renew', payment, quiet);
}

/**
 * POST subscribe/waiting-payment/cancel: ends the subscriber's waiting QRIS, e-wallet or virtual account renewal so
 * that another method can be chosen; answers subscribe/info (renewed, when it was paid meanwhile).
 */
export function cancelWaitingPayment(registerId: string): Promise<SubscriptionInfo> {
  return apiPost('/api/v1/personnal/subscribe/waiting-payment/cancel', { registerId }, quiet);
}
