import { apiGet, apiPost } from '@kabari/shared/api/api-client';
import type { CardDetails } from '@kabari/shared/payments/card-validation';
import type { PaymentMethod } from '@kabari/shared/payments/payment-form';

export type SubscriptionStatus = 'trial' | 'active' | 'cancelled' | 'expired' | 'unsubscribed';

/** GET /api/v1/personnal/subscribe/info (docs/api-v1.md). */
export interface SubscriptionInfo {
  status: SubscriptionStatus;
  expiredStatus: 0 | 1;
  validUntil: string | null;
  nextDebitDay: string | null;
  amount: number;
  firstDayDebitAmount: number;
  currencyCode: string;
  period: number;
  provider: string;
  sandbox: boolean;
  cancelledAt: string | null;
  createdAt: string;
}

export interface PaymentRecord {
  id: string;
  kind: 'first_day' | 'renewal';
  amount: number;
  currencyCode: string;
  state: 'pending' | 'succeeded' | 'failed' | 'refunded' | 'partly_refunded' | 'disputed';
  /** Given back so far (major unit). */
  refundedAmount?: number;
  cardBrand: string | null;
  cardLast4: string | null;
  createdAt: string;
}

const quiet = { toastErrors: false } as const;

export function fetchSubscriptionInfo(): Promise<SubscriptionInfo> {
  return apiGet<SubscriptionInfo>('/api/v1/personnal/subscribe/info', quiet);
}

export async function fetchPayments(): Promise<PaymentRecord[]> {
  return (await apiGet<{ items: PaymentRecord[] }>('/api/v1/personnal/payments', quiet)).items;
}

export function cancelSubscription(): Promise<SubscriptionInfo> {
  return apiPost<SubscriptionInfo>('/api/v1/personnal/subscribe/cancel', {}, quiet);
}

/** POST subscribe/renew: an expired subscriber pays again; the answer's registerId is polled like a sign-up's. */
export function renewSubscription(payment: {
  method: PaymentMethod;
  card?: CardDetails;
  paymentMethodId?: string;
  /** PayPal: the second call captures the order the subscriber approved. */
  registerId?: string;
  orderId?: string;
  capture?: boolean;
}): Promise<{ registerId: string; clientSecret?: string; requiresAction?: boolean; orderId?: string }> {
  return apiPost('/api/v1/personnal/subscribe/renew', payment, quiet);
}
