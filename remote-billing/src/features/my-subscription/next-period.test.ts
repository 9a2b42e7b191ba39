import { activeSubscription } from '../../lib/subscription-info.fixture';
import type { SubscriptionInfo } from '../../lib/subscription-api';
import { nextPeriodOf } from './next-period';

const DAY = 24 * 60 * 60_000;
const now = new Date('2026-12-06T10:00:00.000Z');
const inDays = (days: number) => new Date(now.getTime() + days * DAY).toISOString();

const renewsWhenPaid = (fields: Partial<SubscriptionInfo>): SubscriptionInfo => ({
  ...activeSubscription,
  nextDebitDay: null,
  renewsWhenPaid: true,
  ...fields,
});

describe('nextPeriodOf', () => {
  it('takes the server’s word that the next period is paid, whatever the dates suggest', () => {
    // Three days left, which alone would open paying ahead: the server says it is paid.
    expect(nextPeriodOf(renewsWhenPaid({ validUntil: inDays(3), nextPeriodPaid: true }), now)).toEqual({
      kind: 'paid',
    });
    // 35 days left, the period running to then begun 5 days ago (a longer period): not paid, too early.
    expect(
      nextPeriodOf(renewsWhenPaid({ validUntil: inDays(35), periodStart: inDays(-5), nextPeriodPaid: false }), now),
    ).toEqual({ kind: 'tooEarly', from: inDays(28) });
  });

  it('opens paying from 7 days before the end, and leaves cards, cancelled and ended ones alone', () => {
    expect(nextPeriodOf(renewsWhenPaid({ validUntil: inDays(6) }), now)).toEqual({ kind: 'open' });
    expect(nextPeriodOf({ ...activeSubscription, validUntil: inDays(3) }, now)).toEqual({ kind: 'automatic' });
    expect(nextPeriodOf(renewsWhenPaid({ status: 'cancelled', nextPeriodPaid: true }), now)).toEqual({
      kind: 'cancelled',
    });
    expect(nextPeriodOf(renewsWhenPaid({ status: 'expired', expiredStatus: 1 }), now)).toEqual({ kind: 'ended' });
  });
});
