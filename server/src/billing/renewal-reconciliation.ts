import type { ChargeOutcome } from '../payments/processor';
import type { PaypalProcessor } from '../payments/paypal';
import { orderOutcome } from '../payments/paypal-outcomes';
import type { StripeProcessor } from '../payments/stripe';
import { intentOutcome } from '../payments/stripe-outcomes';
import { failureText } from './billing-messages';
import { renewalFailedEmail } from './emails';
import { askProvider, runReconciliationPass, type ReconciliationDeps } from './reconciliation';
import { RECONCILIATION_LIMITS } from './reconciliation-limits';
import { claimNextPendingRenewal } from './reconciliation-rows';
import { payRefundsOwed, refundOwedFor, type RefundsOwedReport } from './refunds-owed';
import { settlePendingPayment } from './settle';
import { lockPayment, type Payment } from './payment-rows';
import { endSubscription } from './renewal-rows';
import { lockSubscriptionWithUser } from './subscription-rows';

type SettledOutcome = Exclude<ChargeOutcome, { outcome: 'pending' }>;

export interface RenewalReconciliationReport extends RefundsOwedReport {
  checked: number;
  /** Settled exactly as the webhook would have: the period renewed (receipt) or the subscription expired. */
  renewed: number;
  failed: number;
  /** No answer within the long limit: the subscription expired with the renewal-failed notice. */
  unconfirmed: number;
  /** Still pending at the provider (or nothing to change): asked again later. */
  waiting: number;
  /** A success after the period had moved on (paid again by hand meanwhile): bought nothing, so owed back. */
  owedBack: number;
}

type RenewalAnswer = { kind: 'settled'; outcome: SettledOutcome } | { kind: 'open' } | { kind: 'cannot_tell' };

/** Off-session nobody can complete 3-D Secure: the same failure chargeSaved answers at once. */
function needsThePayer(providerRef: string | null, code: string, message: string): RenewalAnswer {
  return { kind: 'settled', outcome: { outcome: 'failed', providerRef, failureCode: code, failureMessage: message } };
}

async function askStripe(stripe: StripeProcessor, payment: Payment): Promise<RenewalAnswer> {
  if (!payment.providerRef) return { kind: 'cannot_tell' };
  const intent = await stripe.retrieveIntent(payment.providerRef);
  const outcome = intentOutcome(intent);
  if (outcome.outcome !== 'pending') return { kind: 'settled', outcome };
  if (intent.status === 'requires_action') {
    return needsThePayer(
      intent.id,
      'authentication_required',
      'Your bank asked to confirm the payment, which cannot be done automatically.',
    );
  }
  return { kind: 'open' };
}

/**
 * The renewal's PayPal reference is its capture (a capture PayPal left PENDING), or its order when PayPal made
 * no capture: the capture is asked first, then the order.
 */
async function askPaypal(paypal: PaypalProcessor, payment: Payment): Promise<RenewalAnswer> {
  const ref = payment.providerRef;
  if (!ref) return { kind: 'cannot_tell' };
  const capture = await paypal.getCapture(ref);
  if (capture) {
    if (capture.status === 'COMPLETED') {
      return {
        kind: 'settled',
        outcome: { outcome: 'succeeded', providerRef: capture.id ?? ref, cardBrand: null, cardLast4: null },
      };
    }
    if (capture.status === 'DECLINED' || capture.status === 'FAILED') {
      return {
        kind: 'settled',
        outcome: {
          outcome: 'failed',
          providerRef: capture.id ?? ref,
          failureCode: capture.statusDetails?.reason ?? capture.status,
          failureMessage: 'PayPal declined the payment.',
        },
      };
    }
    return { kind: 'open' };
  }
  const order = await paypal.getOrder(ref);
  if (!order) return { kind: 'cannot_tell' };
  if (order.status === 'APPROVED') {
    // Captured with the request id the renewal's own capture uses, so PayPal treats both as one.
    const captured = await paypal.captureOrder(ref, `${payment.idempotencyKey}:capture`);
    return captured.outcome.outcome === 'pending' ? { kind: 'open' } : { kind: 'settled', outcome: captured.outcome };
  }
  if (order.status === 'COMPLETED' || order.status === 'VOIDED') {
    const outcome = orderOutcome(order);
    return outcome.outcome === 'pending' ? { kind: 'open' } : { kind: 'settled', outcome };
  }
  // CREATED, SAVED, PAYER_ACTION_REQUIRED: nobody is there to approve a renewal.
  return needsThePayer(order.id ?? ref, 'PAYER_ACTION_REQUIRED', 'PayPal needs the payer to approve this payment.');
}

/**
 * The long limit passed with no answer: the period is not paid for, so the subscription expires with the
 * renewal-failed notice (saying the charge may still go through). The payment stays pending: a definite answer
 * arriving later (a webhook) still settles it, renewing the period with a receipt, or failing it with no second
 * notice (same email key); a success after the subscriber paid again by hand is refunded (settle.ts). Locks in settlePendingPayment's order: the payment, then the subscription.
 */
async function expireUnconfirmed(deps: ReconciliationDeps, payment: Payment, at: Date): Promise<boolean> {
  if (!payment.subscriptionId) return false;
  const subscriptionId = payment.subscriptionId;
  return deps.db.transaction(async (tx) => {
    const current = await lockPayment(tx, payment.id);
    if (current?.state !== 'pending') return false;
    const row = await lockSubscriptionWithUser(tx, subscriptionId);
    if (!row) return false;
    const { subscription, user } = row;
    const forThisPeriod = subscription.periodIndex === payment.periodIndex - 1;
    if (!forThisPeriod || !['trial', 'active'].includes(subscription.status)) return false;
    await endSubscription(tx, subscription.id, at);
    const locale = user.locale;
    await deps.outbox.queue(tx, {
      // The key settleRenewal uses for this period's failure: a late decline sends no second notice.
      idempotencyKey: `renewal-failed:${subscription.id}:${payment.periodIndex}`,
      to: user.email,
      locale,
      ...renewalFailedEmail(locale, {
        displayName: user.displayName,
        amount: payment.amount,
        currency: payment.currency,
        reason: failureText('status_unknown', locale),
        unconfirmed: true,
      }),
    });
    return true;
  });
}

type Step = 'renewed' | 'failed' | 'unconfirmed' | 'waiting' | 'owedBack';

async function reconcileOne(deps: ReconciliationDeps, payment: Payment, at: Date): Promise<Step> {
  const answer = await askProvider<RenewalAnswer>(
    deps,
    payment.provider,
    { paymentId: payment.id },
    { stripe: (stripe) => askStripe(stripe, payment), paypal: (paypal) => askPaypal(paypal, payment) },
    { kind: 'cannot_tell' },
  );
  if (!answer) return 'waiting';

  if (answer.kind === 'settled') {
    // Exactly the webhook's bookkeeping, found by the period's key: a webhook before or after changes nothing.
    const result = await deps.db.transaction((tx) =>
      settlePendingPayment(
        tx,
        payment.idempotencyKey,
        answer.outcome,
        { method: payment.provider === 'paypal' ? 'paypal' : 'card', customerRef: null, paymentMethodRef: null },
        { billing: deps.config, outbox: deps.outbox, now: at },
      ),
    );
    if (!result.settled) return 'waiting';
    if (result.refundOwed) {
      // Marked owed in the settling transaction: tried now, and by the next passes if the provider fails.
      await refundOwedFor(deps, payment.idempotencyKey, at);
      return 'owedBack';
    }
    return answer.outcome.outcome === 'succeeded' ? 'renewed' : 'failed';
  }
  if (at.getTime() - payment.createdAt.getTime() >= RECONCILIATION_LIMITS.unknownAfterMs) {
    return (await expireUnconfirmed(deps, payment, at)) ? 'unconfirmed' : 'waiting';
  }
  return 'waiting';
}

/**
 * One pass of the renewal reconciliation job at `at`: asks the provider about scheduled renewals its webhook has
 * not settled and books what it says. Safe on several instances at once (skip-locked claims moving checked_at)
 * and after a restart (everything it needs is in the database).
 */
export async function reconcileRenewals(deps: ReconciliationDeps, at: Date): Promise<RenewalReconciliationReport> {
  const report = { checked: 0, renewed: 0, failed: 0, unconfirmed: 0, waiting: 0, owedBack: 0 };
  await runReconciliationPass(
    () => claimNextPendingRenewal(deps.db, at),
    (payment) => reconcileOne(deps, payment, at),
    report,
  );
  // Then the late renewal charges, and the renewals by hand paid twice, owed back that no attempt has refunded yet.
  return { ...report, ...(await payRefundsOwed(deps, ['late_renewal', 'duplicate_payment'], at)) };
}
