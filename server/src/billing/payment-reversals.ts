import type { PaymentState } from '../db/column-values';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { payments, subscriptions } from '../db/schema/billing';
import type { MessageOutbox } from '../messages/message-outbox';
import { disputeWonEmail, reversalEndedEmail } from './emails';
import { lockSubscriptionWithUser } from './subscriptions';

type Payment = typeof payments.$inferSelect;

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
  await tx
    .update(subscriptions)
    .set({
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
    })
    .where(eq(subscriptions.id, subscription.id));
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

async function lockPayment(tx: DatabaseExecutor, find: { providerRef?: string | null; paymentKey?: string | null }) {
  if (find.paymentKey) {
    const [byKey] = await tx.select().from(payments).where(eq(payments.idempotencyKey, find.paymentKey)).for('update');
    if (byKey) return byKey;
  }
  if (!find.providerRef) return undefined;
  const [byRef] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.providerRef, find.providerRef), inArray(payments.state, [...REVERSIBLE_STATES])))
    .orderBy(desc(payments.createdAt))
    .limit(1)
    .for('update');
  return byRef;
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
  await tx.update(payments).set({ state, refundedAmount: refunded }).where(eq(payments.id, payment.id));
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
  await tx
    .update(payments)
    .set({ state: 'disputed', disputedAt: payment.disputedAt ?? now })
    .where(eq(payments.id, payment.id));
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
  await tx.update(payments).set({ state }).where(eq(payments.id, payment.id));
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
  await tx
    .update(subscriptions)
    .set({
      status,
      validUntil: subscription.validUntilBeforeDispute,
      cancelledAt: status === 'cancelled' ? subscription.cancelledAt : null,
      disputedPaymentId: null,
      statusBeforeDispute: null,
      validUntilBeforeDispute: null,
      updatedAt: now,
    })
    .where(eq(subscriptions.id, subscription.id));
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
