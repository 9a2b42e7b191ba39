import type { PaymentProvider } from '../db/column-values';
import type { DatabaseExecutor } from '../db/open-database';
import type { Locale } from '../lib/messages';
import { addDays } from './clock';
import { methodLabel, receiptEmail } from './emails';
import { bookPaymentByKey, bookPaymentOnce } from './payment-rows';
import { markRefundOwed } from './refund-rows';
import { lockRegistration, updateRegistration } from './registration-rows';
import {
  type FirstChargeAnswer,
  type RegistrationDeps,
  type SucceededFirstCharge,
  failRegistration,
  restartKey,
  takenPayment,
} from './sign-ups';
import { changeSubscription, lockSubscription, type Subscription } from './subscription-rows';
import { effectiveStatus, renewsWhenPaid } from './subscriptions';

// Renew after expiry: a new charge by hand restarts the subscription, booked once by the attempt's key; paid twice,
// the second payment is owed back.

/** A renew-after-expiry charge the provider settles later: recorded pending, by the attempt's key. */
export async function recordPendingRestart(
  tx: DatabaseExecutor,
  input: {
    registrationId: string;
    userId: string;
    subscription: Subscription;
    provider: PaymentProvider;
    providerRef: string;
    now: Date;
  },
) {
  await bookPaymentOnce(tx, {
    userId: input.userId,
    subscriptionId: input.subscription.id,
    registrationId: input.registrationId,
    kind: 'renewal',
    periodIndex: input.subscription.periodIndex + 1,
    idempotencyKey: restartKey(input.registrationId),
    provider: input.provider,
    providerRef: input.providerRef,
    currency: input.subscription.currency,
    amount: input.subscription.amount,
    state: 'pending',
    createdAt: input.now,
  });
}

/**
 * Books a renew attempt's answer (an expired subscriber paying again): the subscription restarted (or, renewed
 * meanwhile, the payment owed back), the reason (registerQuery says why), or a pending payment settled later.
 */
export async function bookRestart(
  tx: DatabaseExecutor,
  input: {
    registrationId: string;
    user: { id: string; email: string; displayName: string; locale: Locale };
    subscription: Subscription;
    provider: PaymentProvider;
    answer: FirstChargeAnswer;
  },
  deps: RegistrationDeps,
): Promise<RestartResult | null> {
  const { subscription, user, answer } = input;
  const { outcome } = answer;
  if (outcome.outcome === 'succeeded') {
    // The caller read the subscription when the attempt began: its period then.
    return restartSubscription(
      tx,
      {
        subscription,
        periodIndex: subscription.periodIndex,
        registrationId: input.registrationId,
        charge: { ...answer, outcome },
        user,
        provider: input.provider,
      },
      deps,
    );
  } else if (outcome.outcome === 'failed') {
    await failRegistration(
      tx,
      input.registrationId,
      outcome,
      { now: deps.now, price: { currency: subscription.currency, firstDayAmount: subscription.amount } },
      {
        userId: user.id,
        subscriptionId: subscription.id,
        periodIndex: subscription.periodIndex + 1,
        amount: subscription.amount,
      },
    );
  } else if (input.provider !== 'sandbox') {
    await recordPendingRestart(tx, {
      registrationId: input.registrationId,
      userId: user.id,
      subscription,
      provider: input.provider,
      providerRef: outcome.providerRef,
      now: deps.now,
    });
  }
  return null;
}

/** How a renewal by hand was booked: the subscription restarted, or (paid twice) the payment owed back. */
export type RestartResult = { restarted: true; subscription: Subscription } | { restarted: false; duplicate: true };

/**
 * An expired subscriber paid again: a new full period from now (or, paid ahead, from the end of the current one),
 * charged at the subscription's amount, with the new payment method saved for later renewals. The payment row is the
 * caller's (per attempt key).
 *
 * The subscription is read again under its row lock (after the attempt's registration, the lock order of
 * settlePendingPayment): a late renewal charge, or another attempt, may have renewed it since the attempt began
 * (`periodIndex` is its period then). Booking the restart over that would sell one period twice, so the payment
 * is recorded succeeded and owed back instead (refunds-owed.ts), and the subscription is left as it is.
 */
export async function restartSubscription(
  tx: DatabaseExecutor,
  input: {
    subscription: Subscription;
    /** The subscription's period when the attempt began (its pending payment's period minus one). */
    periodIndex: number;
    registrationId: string;
    charge: SucceededFirstCharge;
    user: { id: string; email: string; displayName: string; locale: Locale };
    provider: PaymentProvider;
  },
  deps: RegistrationDeps,
): Promise<RestartResult> {
  const { user, charge } = input;
  await lockRegistration(tx, input.registrationId);
  const subscription = await lockSubscription(tx, input.subscription.id);
  if (!subscription) throw new Error('The subscription of a renewal by hand is gone');
  const status = effectiveStatus(subscription, deps.now);
  const ended = status === 'expired' || status === 'unsubscribed';
  const samePeriod = subscription.periodIndex === input.periodIndex;
  // Paid ahead (a subscription that renews when paid, still in the period it was paid from): the next period
  // follows the current one, so paying early loses no day.
  const paidAhead = !ended && samePeriod && (status === 'active' || status === 'trial') && renewsWhenPaid(subscription);
  const renewedMeanwhile = (!ended && !paidAhead) || !samePeriod;
  const periodIndex = renewedMeanwhile ? input.periodIndex + 1 : subscription.periodIndex + 1;
  const values = {
    userId: user.id,
    subscriptionId: subscription.id,
    registrationId: input.registrationId,
    kind: 'renewal',
    periodIndex,
    idempotencyKey: restartKey(input.registrationId),
    provider: input.provider,
    currency: subscription.currency,
    amount: subscription.amount,
    ...takenPayment(charge, deps.now),
  } as const;
  const payment = await bookPaymentByKey(tx, { ...values, createdAt: deps.now }, values);

  if (renewedMeanwhile) {
    // registerQuery tells the subscriber why (the subscription is active; this payment is refunded in full).
    await markRefundOwed(tx, payment.id, 'duplicate_payment', deps.now);
    await updateRegistration(tx, input.registrationId, {
      state: 'sign_failed',
      failureCode: 'duplicate_payment',
      failureMessage: null,
      userId: user.id,
      subscriptionId: subscription.id,
      updatedAt: deps.now,
    });
    return { restarted: false, duplicate: true };
  }

  const locale: Locale = user.locale;
  const periodStart = paidAhead ? subscription.validUntil : deps.now;
  const validUntil = addDays(periodStart, subscription.periodDays);
  const updated = await changeSubscription(tx, subscription.id, {
    status: 'active',
    provider: input.provider,
    providerCustomerRef: charge.customerRef,
    providerPaymentMethodRef: charge.paymentMethodRef,
    periodIndex,
    currentPeriodStart: periodStart,
    validUntil,
    cancelledAt: null,
    updatedAt: deps.now,
  });
  await updateRegistration(tx, input.registrationId, {
    state: 'created',
    userId: user.id,
    subscriptionId: subscription.id,
    updatedAt: deps.now,
  });
  const receipt = receiptEmail(locale, {
    displayName: user.displayName,
    amount: payment.amount,
    currency: payment.currency,
    kind: 'renewal',
    paidAt: deps.now,
    paymentId: payment.id,
    method: methodLabel(locale, { ...payment, method: charge.method }),
    validUntil,
    nextAmount: subscription.amount,
    sandbox: input.provider === 'sandbox',
    renewsWhenPaid: renewsWhenPaid(updated!),
  });
  await deps.outbox.queue(tx, { idempotencyKey: `receipt:${payment.id}`, to: user.email, locale, ...receipt });
  return { restarted: true, subscription: updated! };
}
