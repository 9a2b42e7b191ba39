import type { PaymentProvider, SubscriptionStatus } from '../db/column-values';
import type { DatabaseExecutor } from '../db/open-database';
import { DAY_MS } from './clock';
import type { PaymentProcessors } from '../payments/processors';
import { toMajor } from '@kabari/rules/money';
import { changeSubscription, lockSubscriptionOf, type Subscription } from './subscription-rows';

// A trial or active subscription whose renewal is due counts as paid for this long after valid_until, so a
// renewal job running a little late never locks anyone out; past it, access ends even if no job ran.
const RENEWAL_GRACE_MS = DAY_MS;

/** What a sandbox subscription paid with a local channel keeps as its method: nothing the sandbox charges again. */
export const SANDBOX_LOCAL_METHOD = 'sandbox:local';

/**
 * How long before its period ends a subscription that renews only when paid may be paid for its next period (that
 * period then starts when the current one ends), and when the first reminder to pay goes out.
 */
export const PAY_AHEAD_DAYS = 7;

/** Paid with QRIS, an e-wallet or a transfer (Midtrans, or the sandbox's): nothing saved to charge again. */
export function renewsWhenPaid(subscription: Pick<Subscription, 'provider' | 'providerPaymentMethodRef'>): boolean {
  return (
    subscription.provider === 'midtrans' ||
    (subscription.provider === 'sandbox' && subscription.providerPaymentMethodRef === SANDBOX_LOCAL_METHOD)
  );
}

/**
 * The status a reader sees now: a cancelled subscription past its paid period has expired, and so has one that renews
 * only when paid (no renewal job is coming for it, so no grace).
 */
export function effectiveStatus(subscription: Subscription, now: Date): SubscriptionStatus {
  const { status } = subscription;
  const ended = subscription.validUntil.getTime() <= now.getTime();
  if (status === 'cancelled' && ended) return 'expired';
  if ((status === 'trial' || status === 'active') && ended && renewsWhenPaid(subscription)) return 'expired';
  if (
    (status === 'trial' || status === 'active') &&
    subscription.validUntil.getTime() + RENEWAL_GRACE_MS <= now.getTime()
  ) {
    return 'expired';
  }
  return status;
}

export interface SubscriptionInfo {
  status: SubscriptionStatus;
  expiredStatus: 0 | 1;
  validUntil: string;
  /** When the period running to validUntil starts: later than now for a period paid ahead. */
  periodStart: string;
  /** Access lasts and its period to validUntil has not begun: the period after today's is paid already. */
  nextPeriodPaid: boolean;
  nextDebitDay: string | null;
  /** Paid with QRIS, an e-wallet or a transfer: never charged by itself, it renews when its owner pays again. */
  renewsWhenPaid: boolean;
  amount: number;
  firstDayDebitAmount: number;
  currencyCode: string;
  period: number;
  provider: PaymentProvider;
  sandbox: boolean;
  cancelledAt: string | null;
  createdAt: string;
}

/**
 * The last answer made from each row. The account cache hands out one row object for a few seconds and
 * subscribe/info runs on every protected navigation: the dates' ISO strings and the amounts are made once per row,
 * not per request. Only the status and whether the next period is paid depend on the time, so an answer is reused
 * while both hold.
 */
const answered = new WeakMap<Subscription, SubscriptionInfo>();

/**
 * `processors`: the payment processors this instance has. A subscription whose provider is not among them (the
 * sandbox's, once the sandbox is off) ends with its paid period: it shows no next charge.
 */
export function subscriptionInfo(
  subscription: Subscription,
  now: Date,
  processors: PaymentProcessors,
): SubscriptionInfo {
  const status = effectiveStatus(subscription, now);
  const paidAhead = nextPeriodPaid(subscription, status, now);
  const known = answered.get(subscription);
  if (known?.status === status && known.nextPeriodPaid === paidAhead) return known;
  const info = describeSubscription(subscription, status, paidAhead, processors[subscription.provider] !== undefined);
  answered.set(subscription, info);
  return info;
}

/**
 * Access lasts, and its period to validUntil starts after now: that period was paid ahead, so the one after today's
 * is paid (the same test that refuses a second payment ahead).
 */
function nextPeriodPaid(subscription: Subscription, status: SubscriptionStatus, now: Date): boolean {
  const lasts = status !== 'expired' && status !== 'unsubscribed';
  return lasts && subscription.currentPeriodStart.getTime() > now.getTime();
}

function describeSubscription(
  subscription: Subscription,
  status: SubscriptionStatus,
  paidAhead: boolean,
  processorAvailable: boolean,
): SubscriptionInfo {
  // A local payment (Midtrans, or the sandbox's) saves nothing to charge: no next charge, it renews when paid.
  const byPayer = renewsWhenPaid(subscription);
  const renews = (status === 'trial' || status === 'active') && processorAvailable && !byPayer;
  return {
    status,
    expiredStatus: status === 'expired' || status === 'unsubscribed' ? 1 : 0,
    validUntil: subscription.validUntil.toISOString(),
    periodStart: subscription.currentPeriodStart.toISOString(),
    nextPeriodPaid: paidAhead,
    nextDebitDay: renews ? subscription.validUntil.toISOString() : null,
    renewsWhenPaid: byPayer,
    amount: toMajor(subscription.amount, subscription.currency),
    firstDayDebitAmount: toMajor(subscription.firstDayAmount, subscription.currency),
    currencyCode: subscription.currency,
    period: subscription.periodDays,
    provider: subscription.provider,
    sandbox: subscription.provider === 'sandbox',
    cancelledAt: subscription.cancelledAt?.toISOString() ?? null,
    createdAt: subscription.createdAt.toISOString(),
  };
}

/** Stops renewals; access continues until valid_until. Idempotent for a subscription already cancelled. */
export async function cancelSubscription(
  tx: DatabaseExecutor,
  userId: string,
  now: Date,
): Promise<{ subscription: Subscription; changed: boolean } | null> {
  const current = await lockSubscriptionOf(tx, userId);
  if (!current) return null;
  const status = effectiveStatus(current, now);
  if (status !== 'trial' && status !== 'active') return { subscription: current, changed: false };
  const updated = await changeSubscription(tx, current.id, { status: 'cancelled', cancelledAt: now, updatedAt: now });
  return { subscription: updated!, changed: true };
}
