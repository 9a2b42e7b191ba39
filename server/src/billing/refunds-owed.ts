import { findUserById } from '../auth/users';
import type { PaymentProvider, RefundReason } from '../db/column-values';
import { processorsOf } from '../payments/processors';
import { RefundRefused } from '../payments/refund-refused';
import { duplicatePaymentRefundedEmail, lateChargeRefundedEmail, refundRefusedOperatorEmail } from './emails';
import type { ReconciliationDeps } from './reconciliation';
import { lockPayment, type Payment } from './payment-rows';
import {
  claimNextOwedRefund,
  claimOwedRefund,
  owedRefundProvider,
  recordRefundMade,
  recordRefundRefused,
} from './refund-rows';

/**
 * Why we give money back on our own: a first charge for an email taken meanwhile (no account was made for it),
 * or a scheduled renewal charge the provider confirmed after its period had moved on (the subscriber had paid
 * again by hand), or a renewal by hand booked after the subscription had been renewed meanwhile (a late renewal
 * charge or another attempt paid the period first). All are money taken that we did not earn.
 */

export type RefundDeps = Pick<
  ReconciliationDeps,
  'db' | 'outbox' | 'config' | 'stripe' | 'paypal' | 'midtrans' | 'log' | 'operatorEmail'
>;

/** The processors that can give money back here: the sandbox only while it is on. */
function refundProcessors(deps: RefundDeps) {
  return processorsOf({
    sandbox: deps.config.sandbox,
    stripe: deps.stripe,
    paypal: deps.paypal,
    midtrans: deps.midtrans,
  });
}

/**
 * The provider's idempotency key (Stripe) or PayPal-Request-Id of the refund: one per payment, whichever path
 * makes it. A taken email's refund keeps the key the sign-up routes use for theirs.
 */
export function refundKeyOf(payment: Pick<Payment, 'refundReason' | 'registrationId' | 'idempotencyKey'>): string {
  if (payment.refundReason === 'email_in_use' && payment.registrationId) return `refund:${payment.registrationId}`;
  return `refund:${payment.idempotencyKey}`;
}

/** This instance can make the refund: it has the provider's keys (the sandbox needs none, only to be on). */
function canRefund(deps: RefundDeps, provider: PaymentProvider): boolean {
  return refundProcessors(deps)[provider] !== undefined;
}

/**
 * The refund went through at the provider: the payment is recorded as refunded in full and the marker cleared;
 * a late renewal's or a duplicate payment's subscriber is told by email (once: the email key is the payment's). A provider refund event
 * that got here first changed the state already; the marker still says the email is owed.
 */
async function recordRefunded(deps: RefundDeps, paymentId: string): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const payment = await lockPayment(tx, paymentId);
    if (!payment?.refundOwedAt) return false;
    await recordRefundMade(tx, payment);
    const email =
      payment.refundReason === 'late_renewal'
        ? { key: 'late-charge-refunded', render: lateChargeRefundedEmail }
        : payment.refundReason === 'duplicate_payment'
          ? { key: 'duplicate-payment-refunded', render: duplicatePaymentRefundedEmail }
          : undefined;
    if (email && payment.userId) {
      const user = await findUserById(tx, payment.userId);
      if (user) {
        const locale = user.locale;
        await deps.outbox.queue(tx, {
          idempotencyKey: `${email.key}:${payment.id}`,
          to: user.email,
          locale,
          ...email.render(locale, {
            displayName: user.displayName,
            amount: payment.amount,
            currency: payment.currency,
            chargedAt: payment.createdAt,
          }),
        });
      }
    }
    return true;
  });
}

/**
 * The provider refused the refund for good (asking again changes nothing): it is no longer owed by the passes but
 * recorded as failed (refund_failed_at, refund_failure: the provider's code), and the operator is emailed once
 * (the email key is the payment's) with what they need to refund it by hand. The subscriber is told nothing: no
 * money came back. The payment keeps its state.
 */
async function recordRefused(deps: RefundDeps, payment: Payment, code: string, at: Date): Promise<boolean> {
  const recorded = await deps.db.transaction(async (tx) => {
    if (!(await recordRefundRefused(tx, payment.id, code, at))) return false;
    await deps.outbox.queue(tx, {
      idempotencyKey: `refund-refused:${payment.id}`,
      to: deps.operatorEmail,
      locale: 'en',
      ...refundRefusedOperatorEmail({
        paymentId: payment.id,
        provider: payment.provider,
        providerRef: payment.providerRef,
        amount: payment.amount,
        currency: payment.currency,
        reason: payment.refundReason,
        code,
      }),
    });
    return true;
  });
  if (recorded) {
    deps.log.error(
      { paymentId: payment.id, provider: payment.provider, code },
      'The provider refused a refund we owe: it is not tried again, and the operator was emailed to refund it by hand',
    );
    deps.outbox.kick();
  }
  return recorded;
}

/** 'refused': the provider will never make it; it went to the operator. */
export type RefundAttempt = 'refunded' | 'failed' | 'refused' | 'not_due';

/**
 * Gives back one claimed payment at its provider (outside any transaction: no row lock is held during the call),
 * then records it. A transient failure is logged (the provider's message only) and left owed for the next
 * attempt; a refusal for good (a 4xx about the payment, or nothing to refund it by) ends the retries.
 */
async function refundClaimed(deps: RefundDeps, payment: Payment, at: Date): Promise<RefundAttempt> {
  const key = refundKeyOf(payment);
  try {
    const processor = refundProcessors(deps)[payment.provider];
    // Only claimed when this instance has the provider (canRefund); its keys removed meanwhile: tried later.
    if (!processor) throw new Error(`${payment.provider} is not configured on this instance`);
    await processor.refund(payment.providerRef, key);
  } catch (error) {
    if (error instanceof RefundRefused) {
      await recordRefused(deps, payment, error.code, at);
      return 'refused';
    }
    deps.log.warn(
      { paymentId: payment.id, provider: payment.provider, message: (error as Error).message },
      'A refund we owe could not be made now; it is tried again later',
    );
    return 'failed';
  }
  await recordRefunded(deps, payment.id);
  deps.outbox.kick();
  return 'refunded';
}

/**
 * The refund owed on the payment with this key, if any, tried now (a webhook after its transaction, and its
 * redelivery): claimed by moving checked_at, so no other instance or pass makes it at the same time.
 */
export async function refundOwedFor(deps: RefundDeps, paymentKey: string, at: Date): Promise<RefundAttempt> {
  const provider = await owedRefundProvider(deps.db, paymentKey);
  if (!provider || !canRefund(deps, provider)) return 'not_due';
  const claimed = await claimOwedRefund(deps.db, paymentKey, at);
  if (!claimed) return 'not_due';
  return refundClaimed(deps, claimed, at);
}

export interface RefundsOwedReport {
  refunded: number;
  /**
   * Not made: the provider failed now (tried again after the recheck interval), or refused it for good (recorded
   * as failed, not tried again, the operator emailed).
   */
  refundsFailed: number;
}

const BATCH_LIMIT = 100;

/**
 * The reconciliation jobs' part: every refund owed for `reason` (one or several) that no instance tried recently, made at the
 * provider. Skip-locked claims moving checked_at, as the other passes; a crash between the provider call and the
 * record is the same refund next time (the key).
 */
export async function payRefundsOwed(
  deps: RefundDeps,
  reason: RefundReason | RefundReason[],
  at: Date,
): Promise<RefundsOwedReport> {
  const reasons = Array.isArray(reason) ? reason : [reason];
  const report: RefundsOwedReport = { refunded: 0, refundsFailed: 0 };
  const providers = Object.keys(refundProcessors(deps)) as PaymentProvider[];
  for (let index = 0; index < BATCH_LIMIT; index += 1) {
    // Another instance with the provider's keys makes the ones this one cannot.
    const claimed = await claimNextOwedRefund(deps.db, reasons, providers, at);
    if (!claimed) break;
    const attempt = await refundClaimed(deps, claimed, at);
    if (attempt === 'refunded') report.refunded += 1;
    else report.refundsFailed += 1;
  }
  return report;
}
