import type { PaymentProvider, RegistrationState } from '../db/column-values';
import { randomBytes } from 'node:crypto';
import { hashPassword } from '../auth/passwords';
import type { DatabaseExecutor } from '../db/open-database';
import type { MessageOutbox } from '../messages/message-outbox';
import type { ChargeOutcome } from '../payments/processor';
import type { BillingConfig } from './billing-config';
import type { Locale } from '../lib/messages';
import { addDays } from './clock';
import { methodLabel, receiptEmail } from './emails';
import { bookPaymentByKey, bookPaymentOnce } from './payment-rows';
import { markRefundOwed } from './refund-rows';
import {
  lockRegistration,
  markAuthCodeIssued,
  registrationLocale,
  updateRegistration,
  updateRegistrationIn,
} from './registration-rows';
import { insertAccountIfEmailFree, insertSubscription, updatePendingPayments } from './sign-up-rows';
import { renewsWhenPaid } from './subscriptions';

// A sign-up's first-day charge, from the attempt to the account: completed, failed, abandoned or left to the
// provider, booked once by its key, and the new user's one-time auth code.

/** 'local': QRIS, an e-wallet or a bank's virtual account, completed by the payer in their own app. */
export type PaymentMethodKind = 'card' | 'wallet' | 'paypal' | 'local';

export interface SucceededFirstCharge {
  outcome: Extract<ChargeOutcome, { outcome: 'succeeded' }>;
  method: PaymentMethodKind;
  customerRef: string | null;
  paymentMethodRef: string | null;
}

/** A payment row's columns for a charge the provider took: its reference, card brand and last four, settled now. */
export function takenPayment(charge: SucceededFirstCharge, now: Date) {
  return {
    providerRef: charge.outcome.providerRef,
    state: 'succeeded',
    cardBrand: charge.outcome.cardBrand,
    cardLast4: charge.outcome.cardLast4,
    settledAt: now,
  } as const;
}

export interface RegistrationDeps {
  billing: BillingConfig;
  outbox: MessageOutbox;
  now: Date;
}

export type CompletionResult =
  | { completed: true; userId: string; subscriptionId: string }
  | { completed: false; reason: 'already_handled' | 'email_in_use' };

/**
 * A sign-up still open to the provider's answer: being queried, or marked unknown by the reconciliation job (a
 * late definite answer from the provider still settles it).
 */
const OPEN_REGISTRATION_STATES: RegistrationState[] = ['querying', 'unknown'];

/**
 * The first-day charge succeeded: the user, the trial subscription, the payment and the receipt, in the caller's
 * transaction. Idempotent: a registration already handled (a replayed webhook, a retried request) changes nothing.
 * A registration whose email got taken meanwhile is marked sign_failed; the caller refunds when money moved.
 */
export async function completeRegistration(
  tx: DatabaseExecutor,
  registrationId: string,
  charge: SucceededFirstCharge,
  deps: RegistrationDeps,
): Promise<CompletionResult> {
  const registration = await lockRegistration(tx, registrationId);
  if (!registration || !OPEN_REGISTRATION_STATES.includes(registration.state)) {
    return { completed: false, reason: 'already_handled' };
  }
  const locale: Locale = registration.locale;
  const price = deps.billing.prices[locale];
  const provider = registration.provider;
  const idempotencyKey = firstDayKey(registrationId);

  const user = await insertAccountIfEmailFree(tx, {
    email: registration.email,
    displayName: registration.displayName,
    phone: registration.phone,
    // No password chosen at sign-up: an unguessable one, which the user replaces through the reset-code flow.
    passwordHash: registration.passwordHash ?? (await hashPassword(randomBytes(32).toString('base64url'))),
    locale,
    ageConfirmedAt: registration.ageConfirmedAt,
    termsAcceptedAt: registration.termsAcceptedAt,
    termsVersion: registration.termsVersion,
  });
  if (!user) {
    await updateRegistration(tx, registrationId, {
      state: 'sign_failed',
      failureCode: 'email_in_use',
      failureMessage: 'This email address is already in use',
      passwordHash: null,
      updatedAt: deps.now,
    });
    // The money moved for nothing: recorded as taken and owed back, in this transaction, so the refund is made
    // (and retried) even when the caller's own attempt after the commit fails. The attempt's recorded amount stays.
    const taken = takenPayment(charge, deps.now);
    const payment = await bookPaymentByKey(
      tx,
      {
        ...taken,
        registrationId,
        kind: 'first_day',
        periodIndex: 0,
        idempotencyKey,
        provider,
        currency: price.currency,
        amount: price.firstDayAmount,
        createdAt: deps.now,
      },
      taken,
    );
    await markRefundOwed(tx, payment.id, 'email_in_use', deps.now);
    return { completed: false, reason: 'email_in_use' };
  }

  const validUntil = addDays(deps.now, 1);
  const subscription = await insertSubscription(tx, {
    userId: user.id,
    status: 'trial',
    provider,
    providerCustomerRef: charge.customerRef,
    providerPaymentMethodRef: charge.paymentMethodRef,
    currency: price.currency,
    firstDayAmount: price.firstDayAmount,
    amount: price.amount,
    periodDays: deps.billing.periodDays,
    periodIndex: 0,
    currentPeriodStart: deps.now,
    validUntil,
    createdAt: deps.now,
    updatedAt: deps.now,
  });

  const paymentValues = {
    userId: user.id,
    subscriptionId: subscription.id,
    registrationId,
    kind: 'first_day',
    periodIndex: 0,
    idempotencyKey,
    provider,
    currency: price.currency,
    amount: price.firstDayAmount,
    ...takenPayment(charge, deps.now),
  } as const;
  const payment = await bookPaymentByKey(tx, { ...paymentValues, createdAt: deps.now }, paymentValues);

  await updateRegistration(tx, registrationId, {
    state: 'created',
    userId: user.id,
    subscriptionId: subscription.id,
    // A reference the attempt already holds (PayPal's order id) stays: a retried capture is matched by it.
    providerRef: registration.providerRef ?? charge.outcome.providerRef,
    passwordHash: null,
    updatedAt: deps.now,
  });

  const receipt = receiptEmail(locale, {
    displayName: user.displayName,
    amount: payment.amount,
    currency: payment.currency,
    kind: 'first_day',
    paidAt: deps.now,
    paymentId: payment.id,
    method: methodLabel(locale, { ...payment, method: charge.method }),
    validUntil,
    nextAmount: price.amount,
    sandbox: provider === 'sandbox',
    needsPassword: registration.passwordHash === null,
    renewsWhenPaid: renewsWhenPaid({ provider, providerPaymentMethodRef: charge.paymentMethodRef }),
  });
  await deps.outbox.queue(tx, { idempotencyKey: `receipt:${payment.id}`, to: user.email, locale, ...receipt });
  return { completed: true, userId: user.id, subscriptionId: subscription.id };
}

export function firstDayKey(registrationId: string): string {
  return `first_day:${registrationId}`;
}

/** A restart (renew after expiry) is charged per attempt: its key is the attempt's registration id. */
export function restartKey(registrationId: string): string {
  return `restart:${registrationId}`;
}

/** The first-day charge failed: the attempt is recorded (no user is created) with the provider's reason. */
export async function failRegistration(
  tx: DatabaseExecutor,
  registrationId: string,
  failure: { providerRef: string | null; failureCode: string; failureMessage: string },
  deps: { now: Date; price: { currency: string; firstDayAmount: number } },
  restart?: { userId: string; subscriptionId: string; periodIndex: number; amount: number },
): Promise<boolean> {
  const provider = await updateRegistrationIn(tx, registrationId, OPEN_REGISTRATION_STATES, {
    state: 'sign_failed',
    failureCode: failure.failureCode,
    failureMessage: failure.failureMessage,
    providerRef: failure.providerRef,
    passwordHash: null,
    updatedAt: deps.now,
  });
  if (!provider) return false;
  const values = {
    registrationId,
    kind: restart ? 'renewal' : 'first_day',
    periodIndex: restart?.periodIndex ?? 0,
    idempotencyKey: restart ? restartKey(registrationId) : firstDayKey(registrationId),
    userId: restart?.userId ?? null,
    subscriptionId: restart?.subscriptionId ?? null,
    provider,
    providerRef: failure.providerRef,
    currency: deps.price.currency,
    amount: restart?.amount ?? deps.price.firstDayAmount,
    state: 'failed',
    failureCode: failure.failureCode,
    settledAt: deps.now,
  } as const;
  await bookPaymentByKey(tx, { ...values, createdAt: deps.now }, values);
  return true;
}

/**
 * The payer left the payment unfinished or cancelled it (the register result "user has unsubscribed"): no
 * account, nothing charged. The attempt's pending payment, if any, is closed as failed with the same code.
 */
export async function abandonRegistration(
  tx: DatabaseExecutor,
  registrationId: string,
  code: 'payment_abandoned' | 'payment_canceled',
  now: Date,
): Promise<boolean> {
  const abandoned = await updateRegistrationIn(tx, registrationId, OPEN_REGISTRATION_STATES, {
    state: 'unsubscribed',
    failureCode: code,
    failureMessage: null,
    passwordHash: null,
    updatedAt: now,
  });
  if (!abandoned) return false;
  await updatePendingPayments(tx, registrationId, { state: 'failed', failureCode: code, settledAt: now });
  return true;
}

/**
 * The provider could not tell how the payment ended within the reconciliation limit (the register result
 * "unknown signing status"). The attempt stays open to a late answer; its password hash is kept for that.
 */
export async function markRegistrationUnknown(tx: DatabaseExecutor, registrationId: string, now: Date) {
  const marked = await updateRegistrationIn(tx, registrationId, ['querying'], {
    state: 'unknown',
    failureCode: 'status_unknown',
    failureMessage: null,
    updatedAt: now,
  });
  return marked !== undefined;
}

/** A first-day charge the provider settles later (webhook or reconciliation): recorded pending, by its key. */
export async function recordPendingFirstDay(
  tx: DatabaseExecutor,
  input: {
    registrationId: string;
    provider: PaymentProvider;
    providerRef: string;
    price: { currency: string; firstDayAmount: number };
    now: Date;
  },
) {
  // Stripe's webhook finds the sign-up by its intent; PayPal's registration keeps its order id (the capture is
  // matched by the payment's key), so a retried approval still finds it.
  if (input.provider === 'stripe') {
    await updateRegistration(tx, input.registrationId, {
      providerRef: input.providerRef,
      failureCode: null,
      updatedAt: input.now,
    });
  }
  await bookPaymentOnce(tx, {
    registrationId: input.registrationId,
    kind: 'first_day',
    periodIndex: 0,
    idempotencyKey: firstDayKey(input.registrationId),
    provider: input.provider,
    providerRef: input.providerRef,
    currency: input.price.currency,
    amount: input.price.firstDayAmount,
    state: 'pending',
    createdAt: input.now,
  });
}

/** A provider's answer to a first charge, with what it saved for renewals. */
export interface FirstChargeAnswer {
  outcome: ChargeOutcome;
  method: PaymentMethodKind;
  customerRef: string | null;
  paymentMethodRef: string | null;
}

/**
 * Books a sign-up's first-day answer, whichever provider gave it: the account (succeeded; null unless it was
 * completed or refused here), the reason (failed), or a pending payment the webhook or the reconciliation job
 * settles later.
 */
export async function bookFirstDay(
  tx: DatabaseExecutor,
  input: { registrationId: string; provider: PaymentProvider; answer: FirstChargeAnswer },
  deps: RegistrationDeps,
): Promise<CompletionResult | null> {
  const { registrationId, provider, answer } = input;
  const { outcome } = answer;
  const locale = await registrationLocale(tx, registrationId);
  const price = deps.billing.prices[locale ?? 'en'];
  if (outcome.outcome === 'succeeded') {
    return completeRegistration(tx, registrationId, { ...answer, outcome }, deps);
  }
  if (outcome.outcome === 'failed') {
    await failRegistration(tx, registrationId, outcome, { now: deps.now, price });
    return null;
  }
  await recordPendingFirstDay(tx, { registrationId, provider, providerRef: outcome.providerRef, price, now: deps.now });
  return null;
}

/** Hands out the auth code of a created registration once, within 30 minutes of its creation. */
export function claimAuthCodeHandout(tx: DatabaseExecutor, registrationId: string, now: Date): Promise<string | null> {
  return markAuthCodeIssued(tx, registrationId, now, new Date(now.getTime() - 30 * 60 * 1000));
}
