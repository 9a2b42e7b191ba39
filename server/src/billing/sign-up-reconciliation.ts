import type { DatabaseExecutor } from '../db/open-database';
import type { MessageOutbox } from '../messages/message-outbox';
import type { ChargeOutcome } from '../payments/processor';
import type { PaypalProcessor } from '../payments/paypal';
import { orderOutcome, vaultOf } from '../payments/paypal-outcomes';
import type { StripeProcessor } from '../payments/stripe';
import { intentOutcome, refOf } from '../payments/stripe-outcomes';
import type { BillingConfig } from './billing-config';
import type { Locale } from '../lib/messages';
import { askProvider, runReconciliationPass, type ReconciliationDeps } from './reconciliation';
import { checkLocalPayment } from './local-payments';
import { RECONCILIATION_LIMITS } from './reconciliation-limits';
import { claimNextQueryingRegistration } from './reconciliation-rows';
import { lockRegistration, type RegistrationRow as Registration } from './registration-rows';
import { payRefundsOwed, refundOwedFor, type RefundsOwedReport } from './refunds-owed';
import { settlePendingPayment, type SettleResult } from './settle';
import { recordPendingRestart } from './restarts';
import { findSubscriptionById } from './subscription-rows';
import {
  abandonRegistration,
  firstDayKey,
  markRegistrationUnknown,
  recordPendingFirstDay,
  restartKey,
  type PaymentMethodKind,
} from './sign-ups';

export interface ReconciliationReport extends RefundsOwedReport {
  checked: number;
  /** Completed or failed, exactly as the webhook would have. */
  settled: number;
  unsubscribed: number;
  unknown: number;
  /** Still open at the provider: asked again later. */
  waiting: number;
}

type SettledOutcome = Exclude<ChargeOutcome, { outcome: 'pending' }>;
type ProviderAnswerSaved = { customerRef: string | null; paymentMethodRef: string | null };

/** What the provider says about one attempt. */
type ProviderAnswer =
  | {
      kind: 'settled';
      outcome: SettledOutcome;
      saved: { customerRef: string | null; paymentMethodRef: string | null };
    }
  | { kind: 'abandoned'; code: 'payment_abandoned' | 'payment_canceled' }
  /** Still open at the provider (processing, or the payer may still finish). */
  | { kind: 'open'; providerRef: string | null }
  /** The provider cannot be asked or does not know this payment. */
  | { kind: 'cannot_tell' };

async function askStripe(
  stripe: StripeProcessor,
  registration: Registration,
  abandoned: boolean,
): Promise<ProviderAnswer> {
  // No intent recorded: the sign-up call failed before Stripe answered; nothing tells which intent it was.
  if (!registration.providerRef) return { kind: 'cannot_tell' };
  let intent = await stripe.retrieveIntent(registration.providerRef);
  const unfinished = ['requires_action', 'requires_confirmation', 'requires_payment_method'];
  if (abandoned && unfinished.includes(intent.status) && !intent.last_payment_error) {
    // Cancelled first, so the payer cannot pay it after the sign-up is closed; Stripe refuses to cancel an
    // intent that has just succeeded, and the next pass then reads that.
    intent = await stripe.cancelIntent(intent.id, `abandon:${registration.id}`);
    if (intent.status === 'canceled') return { kind: 'abandoned', code: 'payment_abandoned' };
  }
  if (intent.status === 'canceled') return { kind: 'abandoned', code: 'payment_canceled' };
  const outcome = intentOutcome(intent);
  if (outcome.outcome === 'pending') return { kind: 'open', providerRef: intent.id };
  return {
    kind: 'settled',
    outcome,
    saved: { customerRef: refOf(intent.customer), paymentMethodRef: refOf(intent.payment_method) },
  };
}

async function askPaypal(
  paypal: PaypalProcessor,
  registration: Registration,
  abandoned: boolean,
): Promise<ProviderAnswer> {
  if (!registration.providerRef) return { kind: 'cannot_tell' };
  const orderId = registration.providerRef;
  const order = await paypal.getOrder(orderId);
  if (!order) {
    // PayPal forgets an order that was never approved once it expires; a captured one it keeps.
    return abandoned ? { kind: 'abandoned', code: 'payment_abandoned' } : { kind: 'cannot_tell' };
  }
  if (order.status === 'VOIDED') return { kind: 'abandoned', code: 'payment_canceled' };
  if (order.status === 'APPROVED') {
    // The payer approved but the browser never asked for the capture: capture it now, with the same request id
    // as the browser's, so PayPal treats both as one.
    const capture = await paypal.captureOrder(orderId, `capture:${registration.id}`);
    if (capture.outcome.outcome === 'pending') return { kind: 'open', providerRef: capture.outcome.providerRef };
    return {
      kind: 'settled',
      outcome: capture.outcome,
      saved: { customerRef: capture.customerRef, paymentMethodRef: capture.paymentMethodRef },
    };
  }
  if (order.status === 'COMPLETED') {
    const outcome = orderOutcome(order);
    if (outcome.outcome === 'pending') return { kind: 'open', providerRef: outcome.providerRef };
    return { kind: 'settled', outcome, saved: vaultOf(order) };
  }
  // CREATED, SAVED, PAYER_ACTION_REQUIRED: the payer has not approved it.
  return abandoned ? { kind: 'abandoned', code: 'payment_abandoned' } : { kind: 'open', providerRef: null };
}

/** An expired subscriber paying again (subscribe/renew), not a new account. */
const isRestart = (registration: Registration) => registration.userId !== null && registration.subscriptionId !== null;

/** The key of the payment an attempt records: a restart's is not a first day's. */
const signUpPaymentKey = (registration: Registration) =>
  isRestart(registration) ? restartKey(registration.id) : firstDayKey(registration.id);

/**
 * Books a sign-up attempt's definite answer inside the caller's transaction, the one way the webhook and the
 * reconciliation job both take: the attempt's payment is recorded pending if it was not yet (the answer overtook
 * the call that records it, or PayPal before its capture), then settled through settlePendingPayment by its key.
 * A registration no longer being queried is not recorded again (a late answer changes nothing).
 */
export async function settleSignUpAnswer(
  tx: DatabaseExecutor,
  input: { registration: Registration; outcome: SettledOutcome; saved: ProviderAnswerSaved; at: Date },
  deps: { config: BillingConfig; outbox: MessageOutbox },
): Promise<SettleResult | null> {
  const { registration, outcome, at } = input;
  const provider = registration.provider as 'stripe' | 'paypal';
  const method: PaymentMethodKind = provider === 'paypal' ? 'paypal' : 'card';
  const restart = isRestart(registration);
  const paymentKey = signUpPaymentKey(registration);
  const providerRef = outcome.providerRef ?? registration.providerRef ?? registration.id;
  // The sign-up first, then its payment: the lock order of settlePendingPayment.
  const current = await lockRegistration(tx, registration.id);
  if (current?.state === 'querying') {
    if (restart) {
      const subscription = await findSubscriptionById(tx, registration.subscriptionId!);
      if (!subscription) return null;
      await recordPendingRestart(tx, {
        registrationId: registration.id,
        userId: registration.userId!,
        subscription,
        provider,
        providerRef,
        now: at,
      });
    } else {
      const locale: Locale = registration.locale;
      await recordPendingFirstDay(tx, {
        registrationId: registration.id,
        provider,
        providerRef,
        price: deps.config.prices[locale],
        now: at,
      });
    }
  }
  return settlePendingPayment(
    tx,
    paymentKey,
    outcome,
    { method, ...input.saved },
    { billing: deps.config, outbox: deps.outbox, now: at },
  );
}

/**
 * Books a definite answer exactly as the webhook would; money owed back (a charge for an email taken meanwhile, a
 * restart that found the period renewed already) is refunded.
 */
async function settleAnswer(
  deps: ReconciliationDeps,
  registration: Registration,
  answer: Extract<ProviderAnswer, { kind: 'settled' }>,
  at: Date,
): Promise<boolean> {
  const result = await deps.db.transaction((tx) =>
    settleSignUpAnswer(tx, { registration, outcome: answer.outcome, saved: answer.saved, at }, deps),
  );
  // Owed back (marked in the transaction): tried now, and by the next passes if the provider fails.
  if (result?.settled && result.refundOwed) await refundOwedFor(deps, signUpPaymentKey(registration), at);
  return result?.settled ?? false;
}

type Step = 'settled' | 'unsubscribed' | 'unknown' | 'waiting';

async function reconcileOne(deps: ReconciliationDeps, registration: Registration, at: Date): Promise<Step> {
  if (registration.provider === 'midtrans' || registration.provider === 'sandbox') {
    // A local payment (its notification never came): paid or ended at Midtrans, or past its expiry.
    const checked = await checkLocalPayment({ ...deps, midtrans: deps.midtrans }, registration, at);
    return checked === 'waiting' ? 'waiting' : 'settled';
  }
  const age = at.getTime() - registration.createdAt.getTime();
  const abandoned = age >= RECONCILIATION_LIMITS.abandonedAfterMs;
  const answer = await askProvider<ProviderAnswer>(
    deps,
    registration.provider,
    { registrationId: registration.id },
    {
      stripe: (stripe) => askStripe(stripe, registration, abandoned),
      paypal: (paypal) => askPaypal(paypal, registration, abandoned),
    },
    { kind: 'cannot_tell' },
  );
  if (!answer) return 'waiting';

  if (answer.kind === 'settled') {
    return (await settleAnswer(deps, registration, answer, at)) ? 'settled' : 'waiting';
  }
  if (answer.kind === 'abandoned') {
    const changed = await deps.db.transaction((tx) => abandonRegistration(tx, registration.id, answer.code, at));
    return changed ? 'unsubscribed' : 'waiting';
  }
  if (age >= RECONCILIATION_LIMITS.unknownAfterMs) {
    const changed = await deps.db.transaction((tx) => markRegistrationUnknown(tx, registration.id, at));
    return changed ? 'unknown' : 'waiting';
  }
  return 'waiting';
}

/**
 * One pass of the sign-up reconciliation job at `at`: asks the provider about attempts its webhook has not
 * settled and books what it says. Safe on several instances at once (claims skip locked rows and move
 * checked_at) and after a restart (everything it needs is in the database); a late webhook finds the attempt
 * settled and changes nothing.
 */
export async function reconcileSignUps(deps: ReconciliationDeps, at: Date): Promise<ReconciliationReport> {
  const report = { checked: 0, settled: 0, unsubscribed: 0, unknown: 0, waiting: 0 };
  await runReconciliationPass(
    () => claimNextQueryingRegistration(deps.db, at),
    (registration) => reconcileOne(deps, registration, at),
    report,
  );
  // Then the refunds of charges for a taken email that no attempt has made yet (the provider failed).
  return { ...report, ...(await payRefundsOwed(deps, 'email_in_use', at)) };
}
