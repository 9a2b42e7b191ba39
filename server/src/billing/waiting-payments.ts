import type { User } from '../auth/users';
import { HttpError } from '../lib/envelope';
import type { LocalEndCode, LocalStatus } from '../payments/local-payments';
import { sayBilling as say } from './billing-messages';
import { findLocalPayment, type LocalPaymentRow } from './local-payment-rows';
import { paidAnswer, settleLocalAnswer, settleLocalRefund, type LocalAnswer } from './local-payments';
import { paymentByKey } from './payment-rows';
import { findRegistration, type RegistrationRow } from './registration-rows';
import { restartKey } from './sign-ups';
import { subscriptionWithWaiting, type SubscriptionDeps } from './subscriber-billing';
import { findSubscription } from './subscription-rows';

// A subscriber's own waiting renewal payment (QRIS, an e-wallet, a bank's virtual account), cancelled so that they
// can pay another way: a virtual account waits a day, and a second payment for the same period is refused meanwhile.

/** What the gateway says once asked to end the order: an answer to book, or a refund to record. */
type GatewayAnswer =
  { kind: 'book'; answer: LocalAnswer } | { kind: 'refunded'; status: LocalStatus & { state: { kind: 'refunded' } } };

/**
 * Ends the order at Midtrans (expired: it can no longer be paid), then reads its status, so that a payment made in
 * the last moment (Midtrans refuses to expire it) counts as paid. Midtrans unreachable, or still waiting after the
 * expiry: 502, nothing booked, the payment still waits. The sandbox has no gateway: it ends at once.
 */
async function endAtGateway(
  deps: SubscriptionDeps,
  registration: RegistrationRow,
  row: LocalPaymentRow,
  now: Date,
): Promise<GatewayAnswer> {
  // Past its expiry it ran out rather than being cancelled (reconciliation would book the same).
  const code: LocalEndCode = now.getTime() >= row.expiresAt.getTime() ? 'payment_expired' : 'payment_cancelled';
  if (registration.provider === 'sandbox') return { kind: 'book', answer: { kind: 'ended', code } };
  const gateway = deps.billing.midtrans;
  let status: LocalStatus | null;
  try {
    if (!gateway) throw new Error('Midtrans is not configured on this instance');
    await gateway.expire(registration.id);
    status = await gateway.status(registration.id);
  } catch (error) {
    deps.log.warn(
      { registrationId: registration.id, message: (error as Error).message },
      'Midtrans could not be reached to cancel a waiting payment; it still waits',
    );
    throw new HttpError(502, say('waitingPaymentUnreachable'));
  }
  const state = status?.state;
  if (!status || !state) return { kind: 'book', answer: { kind: 'ended', code } };
  if (state.kind === 'paid') return { kind: 'book', answer: paidAnswer(row, status, deps.log, registration.id) };
  if (state.kind === 'refunded') return { kind: 'refunded', status: { ...status, state } };
  // Expired by us just now: cancelled. Denied or cancelled at the bank before: as Midtrans says.
  if (state.kind === 'ended')
    return { kind: 'book', answer: { kind: 'ended', code: state.code === 'payment_expired' ? code : state.code } };
  deps.log.warn({ registrationId: registration.id }, 'Midtrans still has a payment waiting after expiring it');
  throw new HttpError(502, say('waitingPaymentUnreachable'));
}

/**
 * Cancels the signed-in subscriber's waiting local payment of a renewal (or of a period paid ahead), so that another
 * method can be chosen: expired at Midtrans (or ended in the sandbox) and booked as ended with payment_cancelled,
 * unless Midtrans says it was paid meanwhile, which is settled exactly as its notification would settle it (paid with
 * another amount: ended, the money owed back). Another user's attempt, an unknown one, or one that ended otherwise:
 * 404. Cancelled already: nothing changes, the same answer. Answers the subscription as subscribe/info gives it.
 */
export async function cancelWaitingPayment(deps: SubscriptionDeps, user: User, registerId: string) {
  const registration = await findRegistration(deps.db, registerId);
  const local =
    registration?.userId === user.id && (registration.provider === 'midtrans' || registration.provider === 'sandbox')
      ? await findLocalPayment(deps.db, registerId)
      : undefined;
  const payment = local ? await paymentByKey(deps.db, restartKey(registerId)) : undefined;
  if (!registration || !local || payment?.kind !== 'renewal') throw new HttpError(404, say('waitingPaymentNotFound'));

  if (registration.state === 'querying') {
    const now = deps.billing.clock.now();
    const ended = await endAtGateway(deps, registration, local, now);
    const booking = { config: deps.billing.config, outbox: deps.outbox, now };
    await deps.db.transaction((tx) =>
      ended.kind === 'refunded'
        ? settleLocalRefund(tx, registration, local, ended.status, booking)
        : settleLocalAnswer(tx, registration, ended.answer, booking),
    );
    deps.outbox.kick();
    // Paid as asked but for a period renewed meanwhile: owed back, and given back now as the notification would
    // (a provider failure is retried by the refund pass).
    if (ended.kind === 'book' && ended.answer.kind === 'paid') await deps.billing.refundOwedNow(restartKey(registerId));
  } else if (registration.failureCode !== 'payment_cancelled') {
    throw new HttpError(404, say('waitingPaymentNotFound'));
  }

  // Read afresh, not from the session cache: a payment settled just now may have renewed it.
  const subscription = await findSubscription(deps.db, user.id);
  if (!subscription) throw new HttpError(404, say('noSubscription'));
  return subscriptionWithWaiting(deps, subscription, deps.billing.clock.now());
}
