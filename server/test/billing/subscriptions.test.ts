import type { Subscription } from '../../src/billing/subscription-rows';
import { subscriptionInfo } from '../../src/billing/subscriptions';
import { processorsOf } from '../../src/payments/processors';

const DAY = 24 * 60 * 60 * 1000;

function trialRow(validUntil: Date): Subscription {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    userId: '00000000-0000-4000-8000-000000000002',
    status: 'trial',
    provider: 'sandbox',
    providerCustomerRef: null,
    providerPaymentMethodRef: null,
    currency: 'USD',
    firstDayAmount: 99,
    amount: 2999,
    periodDays: 30,
    periodIndex: 0,
    currentPeriodStart: new Date(validUntil.getTime() - DAY),
    validUntil,
    reminderSentForPeriod: null,
    payReminderPeriod: null,
    payReminderDays: null,
    cancelledAt: null,
    disputedPaymentId: null,
    statusBeforeDispute: null,
    validUntilBeforeDispute: null,
    createdAt: new Date(validUntil.getTime() - DAY),
    updatedAt: new Date(validUntil.getTime() - DAY),
  };
}

describe('subscriptionInfo', () => {
  const validUntil = new Date('2026-12-02T10:00:00.000Z');
  // The processors of an instance with the sandbox on (the rows are the sandbox's).
  const sandboxOn = processorsOf({ sandbox: true, stripe: undefined, paypal: undefined });

  it('describes the row in the API’s terms', () => {
    expect(subscriptionInfo(trialRow(validUntil), new Date('2026-12-01T10:00:00.000Z'), sandboxOn)).toEqual({
      status: 'trial',
      expiredStatus: 0,
      validUntil: '2026-12-02T10:00:00.000Z',
      periodStart: '2026-12-01T10:00:00.000Z',
      nextPeriodPaid: false,
      nextDebitDay: '2026-12-02T10:00:00.000Z',
      renewsWhenPaid: false,
      amount: 29.99,
      firstDayDebitAmount: 0.99,
      currencyCode: 'USD',
      period: 30,
      provider: 'sandbox',
      sandbox: true,
      cancelledAt: null,
      createdAt: '2026-12-01T10:00:00.000Z',
    });
  });

  it('answers again from one row while its status holds, and anew once time has changed the status', () => {
    const row = trialRow(validUntil);
    const first = subscriptionInfo(row, new Date('2026-12-01T10:00:00.000Z'), sandboxOn);
    expect(subscriptionInfo(row, new Date('2026-12-02T09:00:00.000Z'), sandboxOn)).toBe(first);
    // Past the day of grace after validUntil with no renewal, access has ended.
    const ended = subscriptionInfo(row, new Date(validUntil.getTime() + DAY), sandboxOn);
    expect(ended).toMatchObject({ status: 'expired', expiredStatus: 1, nextDebitDay: null });
    // Another row with the same values is described on its own (a changed row is always a new object).
    expect(subscriptionInfo({ ...row, amount: 4999 }, new Date('2026-12-01T10:00:00.000Z'), sandboxOn).amount).toBe(
      49.99,
    );
  });

  it('says the next period is paid while the period running to validUntil has not begun, and anew once it has', () => {
    const start = new Date(validUntil.getTime() - DAY);
    const row = trialRow(validUntil);
    const before = subscriptionInfo(row, new Date(start.getTime() - 60_000), sandboxOn);
    expect(before).toMatchObject({ periodStart: start.toISOString(), nextPeriodPaid: true });
    expect(subscriptionInfo(row, new Date(start.getTime() + 60_000), sandboxOn)).toMatchObject({
      nextPeriodPaid: false,
    });
  });

  it('shows no next charge where this instance has no processor for the subscription (the sandbox turned off)', () => {
    const sandboxOff = processorsOf({ sandbox: false, stripe: undefined, paypal: undefined });
    const info = subscriptionInfo(trialRow(validUntil), new Date('2026-12-01T10:00:00.000Z'), sandboxOff);
    expect(info).toMatchObject({ status: 'trial', validUntil: '2026-12-02T10:00:00.000Z', nextDebitDay: null });
  });
});
