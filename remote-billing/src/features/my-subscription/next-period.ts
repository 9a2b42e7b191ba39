import type { SubscriptionInfo } from '../../lib/subscription-api';

const DAY_MS = 24 * 60 * 60_000;
/** How long before its end a subscription that renews when paid may be paid for its next period (as the server). */
export const payAheadDays = 7;

/**
 * What can be done about the period after the current one:
 * - automatic: a card (or PayPal) subscription, charged by itself;
 * - open: it renews when paid and its end is near enough to pay for the next period now;
 * - tooEarly: it renews when paid, from `from` on;
 * - paid: the server says the next period is paid (its period to validUntil has not begun yet);
 * - cancelled / ended: nothing to pay for (an ended one is offered renewal by the expired state instead).
 */
export type NextPeriod =
  { kind: 'automatic' | 'open' | 'paid' | 'cancelled' | 'ended' } | { kind: 'tooEarly'; from: string };

export function nextPeriodOf(info: SubscriptionInfo, now: Date): NextPeriod {
  if (info.status === 'cancelled') return { kind: 'cancelled' };
  if (info.status !== 'trial' && info.status !== 'active') return { kind: 'ended' };
  if (!info.renewsWhenPaid) return { kind: 'automatic' };
  if (info.nextPeriodPaid) return { kind: 'paid' };
  const end = new Date(info.validUntil).getTime();
  const from = end - payAheadDays * DAY_MS;
  if (from > now.getTime()) return { kind: 'tooEarly', from: new Date(from).toISOString() };
  return { kind: 'open' };
}
