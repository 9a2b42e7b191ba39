import type { PaymentState } from '../db/column-values';
import type { DatabaseExecutor } from '../db/open-database';
import type { MessageOutbox } from '../messages/message-outbox';
import { disputeWonEmail, reversalEndedEmail } from './emails';
import { lockNewestPaymentByRef, lockPaymentByKey, updatePayment, type Payment } from './payment-rows';
import { lockSubscriptionWithUser, updateSubscription } from './subscription-rows';

/** Payments money can come back from: a refund or a dispute on anything else changes nothing. */
const REVERSIBLE_STATES = new Set<PaymentState>(['succeeded', 'partly_refunded', 'refunded', 'disputed']);

export type ReversalResult = { recorded: false } | { recorded: true; state: string; endedSubscription: boolean };

/**
 * The honest rule (docs/api-v1.md, webhooks): money given back in full for the charge that paid the current
 * period, or any dispute (chargeback) on a charge of the subscription, ends the subscription at once, as
 * unsubscribed, with an email; nothing more is charged (renewals only charge trial and active subscriptions).
 * A partial refund, a refund of an earlier period's charge, or our own refund of a charge that bought nothing, is
 * recorded on the payment only: the period in progress is still paid for.
 */
async function endSubscriptionFor(
  tx: DatabaseExecutor,
  outbox: MessageOutbox,
  payment: Payment,
  reason: 'refunded' | 'disputed',
  now: Date,
): Promise<boolean> {
  if (!payment.subscriptionId) return false;
  const row = await lockSubscriptionWithUser(tx, payment.subscriptionId);
  if (!row) return false;
  const { subscription, user } = row;
  if (!['trial', 'active', 'cancelled'].includes(subscription.status)) return false;
  if (reason === 'refunded' && payment.periodIndex !== subscription.periodIndex) return false;
  // Our own refund of money we did not earn (refunds-owed.ts): the period in progress was paid by another charge.
  if (reason === 'refunded' && payment.refundReason) return false;
  await updateSubscription(tx, subscription.id, {
    status: 'unsubscribed',
    validUntil: subscription.validUntil < now ? subscription.validUntil : now,
    cancelledAt: subscription.cancelledAt ?? now,
    // What a won dispute gives back (recordDisputeWon).
    ...(reason === 'disputed' && {
      disputedPaymentId: payment.id,
      statusBeforeDispute: subscription.status,
      validUntilBeforeDispute: subscription.validUntil,
    }),
    updatedAt: now,
  });
  const locale = user.locale;
  await outbox.queue(tx, {
    idempotencyKey: `reversal-ended:${subscription.id}:${payment.id}`,
    to: user.email,
    locale,
    ...reversalEndedEmail(locale, {
      displayName: user.displayName,
      amount: payment.amount,
      currency: payment.currency,
      paidAt: payment.settledAt ?? payment.createdAt,
      reason,
    }),
  });
  return true;
}

/**
 * The payment a provider's event is about, locked: by our key when the event carries it, else the newest payment
 * money can come back from with the provider's reference.
 */
async function lockPayment(tx: DatabaseExecutor, find: { providerRef?: string | null; paymentKey?: string | null }) {
  if (find.paymentKey) {
    const byKey = await lockPaymentByKey(tx, find.paymentKey);
    if (byKey) return byKey;
  }
  if (!find.providerRef) return undefined;
  return lockNewestPaymentByRef(tx, find.providerRef, [...REVERSIBLE_STATES]);
}

/**
 * The provider reports money given back on a charge (our minor units): `total`, everything refunded on it so far
 * (Stripe, PayPal when it says), or `amount`, this refund alone (each event id is handled once). The recorded
 * amount only grows, so an older event arriving late changes nothing.
 */
export async function recordRefund(
  tx: DatabaseExecutor,
  outbox: MessageOutbox,
  find: { providerRef?: string | null; paymentKey?: string | null },
  refund: { total: number } | { amount: number },
  now: Date,
): Promise<ReversalResult> {
  const payment = await lockPayment(tx, find);
  if (!payment || !REVERSIBLE_STATES.has(payment.state)) return { recorded: false };
  const reported = 'total' in refund ? refund.total : payment.refundedAmount + refund.amount;
  const refunded = Math.min(payment.amount, Math.max(payment.refundedAmount, reported));
  const full = refunded >= payment.amount;
  const state =
    payment.state === 'disputed' ? 'disputed' : full ? 'refunded' : refunded > 0 ? 'partly_refunded' : payment.state;
  await updatePayment(tx, payment.id, { state, refundedAmount: refunded });
  const endedSubscription = full && (await endSubscriptionFor(tx, outbox, payment, 'refunded', now));
  return { recorded: true, state, endedSubscription };
}

/** The payer disputed a charge (a chargeback, or PayPal reversing the capture). Idempotent. */
export async function recordDispute(
  tx: DatabaseExecutor,
  outbox: MessageOutbox,
  find: { providerRef?: string | null; paymentKey?: string | null },
  now: Date,
): Promise<ReversalResult> {
  const payment = await lockPayment(tx, find);
  if (!payment || !REVERSIBLE_STATES.has(payment.state)) return { recorded: false };
  await updatePayment(tx, payment.id, { state: 'disputed', disputedAt: payment.disputedAt ?? now });
  const endedSubscription = await endSubscriptionFor(tx, outbox, payment, 'disputed', now);
  return { recorded: true, state: 'disputed', endedSubscription };
}

/**
 * The operator won the dispute of a charge (the bank kept the money with us): the payment counts again, and the
 * subscription the dispute ended gets back the status and period end it had, with an email; one ended since for
 * another reason, or renewed by a new payment, is left alone. Idempotent.
 */
export async function recordDisputeWon(
  tx: DatabaseExecutor,
  outbox: MessageOutbox,
  find: { providerRef?: string | null; paymentKey?: string | null },
  now: Date,
): Promise<{ recorded: boolean; restoredSubscription: boolean }> {
  const payment = await lockPayment(tx, find);
  if (!payment || payment.state !== 'disputed') return { recorded: false, restoredSubscription: false };
  const state =
    payment.refundedAmount >= payment.amount
      ? 'refunded'
      : payment.refundedAmount > 0
        ? 'partly_refunded'
        : 'succeeded';
  await updatePayment(tx, payment.id, { state });
  if (!payment.subscriptionId) return { recorded: true, restoredSubscription: false };
  const row = await lockSubscriptionWithUser(tx, payment.subscriptionId);
  const subscription = row?.subscription;
  if (
    !row ||
    !subscription ||
    subscription.status !== 'unsubscribed' ||
    subscription.disputedPaymentId !== payment.id ||
    !subscription.statusBeforeDispute ||
    !subscription.validUntilBeforeDispute
  ) {
    return { recorded: true, restoredSubscription: false };
  }
  const status = subscription.statusBeforeDispute;
  await updateSubscription(tx, subscription.id, {
    status,
    validUntil: subscription.validUntilBeforeDispute,
    cancelledAt: status === 'cancelled' ? subscription.cancelledAt : null,
    disputedPaymentId: null,
    statusBeforeDispute: null,
    validUntilBeforeDispute: null,
    updatedAt: now,
  });
  const { user } = row;
  await outbox.queue(tx, {
    idempotencyKey: `dispute-won:${subscription.id}:${payment.id}`,
    to: user.email,
    locale: user.locale,
    ...disputeWonEmail(user.locale, {
      displayName: user.displayName,
      amount: payment.amount,
      currency: payment.currency,
      paidAt: payment.settledAt ?? payment.createdAt,
      validUntil: subscription.validUntilBeforeDispute,
      renews: status !== 'cancelled',
    }),
  });
  return { recorded: true, restoredSubscription: true };
}
