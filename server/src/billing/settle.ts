import type { DatabaseExecutor } from '../db/open-database';
import type { ChargeOutcome } from '../payments/processor';
import { lockPayment, paymentByKey, recordPaymentOutcome, type Payment } from './payment-rows';
import { markRefundOwed } from './refund-rows';
import { lockRegistration } from './registration-rows';
import { settleRenewal } from './renewals';
import { restartSubscription } from './restarts';
import { completeRegistration, failRegistration, type PaymentMethodKind, type RegistrationDeps } from './sign-ups';
import { lockSubscriptionWithUser } from './subscription-rows';

export type SettleResult =
  /** missing: no payment has this key (yet: the webhook may have overtaken the call that records it). */
  | { settled: false; missing?: boolean }
  | {
      settled: true;
      kind: 'first_day' | 'restart' | 'renewal';
      emailInUse?: boolean;
      registrationId?: string;
      /**
       * The charge succeeded but bought nothing (a late renewal, a taken email, a renewal by hand after the period was
       * paid meanwhile): a refund is owed (refunds-owed.ts).
       */
      refundOwed?: boolean;
    };

/**
 * A scheduled renewal's answer after its period moved on (or its subscription is gone): the payment is closed
 * either way, with no email and no change to the subscription. A success is money we did not earn: owed back
 * (refunds-owed.ts refunds it and tells the subscriber).
 */
async function settleMovedOn(
  tx: DatabaseExecutor,
  payment: Payment,
  outcome: Exclude<ChargeOutcome, { outcome: 'pending' }>,
  now: Date,
): Promise<SettleResult> {
  await recordPaymentOutcome(tx, payment, outcome, now);
  if (outcome.outcome === 'failed') return { settled: true, kind: 'renewal' };
  await markRefundOwed(tx, payment.id, 'late_renewal', now);
  return { settled: true, kind: 'renewal', refundOwed: true };
}

/**
 * A provider's late answer (a webhook) for a payment we recorded as pending, found by its idempotency key: the
 * same bookkeeping as when the answer comes at once. A first-day charge completes or fails the sign-up; a
 * restart (renew after expiry) restarts the subscription or fails the attempt; a scheduled renewal extends or
 * ends the subscription. A payment no longer pending (a replay, or settled already) changes nothing.
 */
export async function settlePendingPayment(
  tx: DatabaseExecutor,
  paymentKey: string,
  outcome: Exclude<ChargeOutcome, { outcome: 'pending' }>,
  saved: { method: PaymentMethodKind; customerRef: string | null; paymentMethodRef: string | null },
  deps: RegistrationDeps,
): Promise<SettleResult> {
  const found = await paymentByKey(tx, paymentKey);
  if (!found) return { settled: false, missing: true };
  // The sign-up first, then its payment: the order every path takes (the Stripe webhook, the routes, the
  // reconciliation job), so two of them settling one attempt at once wait for each other instead of deadlocking.
  if (found.registrationId) {
    await lockRegistration(tx, found.registrationId);
  }
  const payment = await lockPayment(tx, found.id);
  if (!payment) return { settled: false, missing: true };
  if (payment.state !== 'pending') return { settled: false };

  if (payment.kind === 'first_day' && payment.registrationId) {
    const registrationId = payment.registrationId;
    if (outcome.outcome === 'succeeded') {
      const result = await completeRegistration(tx, registrationId, { outcome, ...saved }, deps);
      return {
        settled: true,
        kind: 'first_day',
        registrationId,
        emailInUse: !result.completed && result.reason === 'email_in_use',
        refundOwed: !result.completed && result.reason === 'email_in_use',
      };
    }
    await failRegistration(tx, registrationId, outcome, {
      now: deps.now,
      price: { currency: payment.currency, firstDayAmount: payment.amount },
    });
    return { settled: true, kind: 'first_day', registrationId };
  }

  // A renewal whose subscription is gone (the account was deleted): nothing to renew, so the same as moved on.
  const row = payment.subscriptionId ? await lockSubscriptionWithUser(tx, payment.subscriptionId) : undefined;
  if (!row) return payment.kind === 'renewal' ? settleMovedOn(tx, payment, outcome, deps.now) : { settled: false };
  const { subscription, user } = row;

  if (payment.registrationId) {
    // A restart: the attempt's registration row says how it ended (registerQuery polls it).
    const registrationId = payment.registrationId;
    if (outcome.outcome === 'succeeded') {
      const restart = await restartSubscription(
        tx,
        {
          subscription,
          // The attempt recorded its payment for the period after the one current then.
          periodIndex: payment.periodIndex - 1,
          registrationId,
          charge: { outcome, ...saved },
          user,
          provider: payment.provider as 'stripe' | 'paypal',
        },
        deps,
      );
      // Renewed meanwhile (a late renewal charge, another attempt): this payment bought nothing and is owed back.
      if (!restart.restarted) return { settled: true, kind: 'restart', registrationId, refundOwed: true };
    } else {
      await failRegistration(
        tx,
        registrationId,
        outcome,
        { now: deps.now, price: { currency: payment.currency, firstDayAmount: payment.amount } },
        { userId: user.id, subscriptionId: subscription.id, periodIndex: payment.periodIndex, amount: payment.amount },
      );
    }
    return { settled: true, kind: 'restart', registrationId };
  }

  // A scheduled renewal: only the period it was for renews. When the subscription has moved on since (it expired
  // unconfirmed and was paid again by hand), the charge bought nothing: a success is recorded and owed back.
  if (subscription.periodIndex !== payment.periodIndex - 1) {
    return settleMovedOn(tx, payment, outcome, deps.now);
  }
  const updated = await recordPaymentOutcome(tx, payment, outcome, deps.now);
  await settleRenewal(tx, deps.outbox, { subscription, user, payment: updated }, outcome, deps.now);
  return { settled: true, kind: 'renewal' };
}
