import type { SubscriptionInfo } from './subscription-api';

/** For tests: an active sandbox subscription as subscribe/info answers it; a test spreads it to change a field. */
export const activeSubscription: SubscriptionInfo = {
  status: 'active',
  expiredStatus: 0,
  validUntil: '2026-12-22T10:00:00.000Z',
  periodStart: '2026-11-22T10:00:00.000Z',
  nextPeriodPaid: false,
  nextDebitDay: '2026-12-22T10:00:00.000Z',
  amount: 29.99,
  firstDayDebitAmount: 0.99,
  currencyCode: 'USD',
  period: 30,
  provider: 'sandbox',
  sandbox: true,
  cancelledAt: null,
  createdAt: '2026-11-21T10:00:00.000Z',
  waitingPayment: null,
};
