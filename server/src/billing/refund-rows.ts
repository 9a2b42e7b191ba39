import { and, eq, inArray, isNotNull, isNull, ne } from 'drizzle-orm';
import type { PaymentProvider, RefundReason } from '../db/column-values';
import type { Database, DatabaseExecutor } from '../db/open-database';
import { payments } from '../db/schema/billing';
import type { Payment } from './payment-rows';
import { claimNextRow, notCheckedRecently } from './reconciliation-rows';

// The refunds Kabari owes, as rows: marked owed, claimed by one instance at a time, and recorded as made or
// refused. The rules (what is owed, who is told) are in refunds-owed.ts.

/**
 * Marks a succeeded payment as owed back, in the transaction that found out (so a crash or a provider error
 * afterwards cannot lose it). checked_at is cleared: the first attempt may be made at once.
 */
export async function markRefundOwed(tx: DatabaseExecutor, paymentId: string, reason: RefundReason, now: Date) {
  await tx
    .update(payments)
    .set({ refundReason: reason, refundOwedAt: now, checkedAt: null })
    .where(and(eq(payments.id, paymentId), isNull(payments.refundOwedAt)));
}

/**
 * Not tried by any instance within the recheck interval: one attempt at a time, a failed one retried later. A
 * disputed payment waits: the dispute decides where its money goes, and a refund beside it could pay the card
 * holder twice (Stripe refuses one anyway); it stays owed, for the operator to see.
 */
const dueNow = (at: Date) => and(ne(payments.state, 'disputed'), notCheckedRecently(at, payments.checkedAt));

/** The provider of the payment with this key, when a refund of it is owed. */
export async function owedRefundProvider(db: DatabaseExecutor, paymentKey: string): Promise<PaymentProvider | null> {
  const [payment] = await db
    .select({ provider: payments.provider })
    .from(payments)
    .where(and(eq(payments.idempotencyKey, paymentKey), isNotNull(payments.refundOwedAt)));
  return payment?.provider ?? null;
}

/** Claims the refund owed on the payment with this key, if it is due, by moving checked_at. */
export async function claimOwedRefund(
  db: DatabaseExecutor,
  paymentKey: string,
  at: Date,
): Promise<Payment | undefined> {
  const [claimed] = await db
    .update(payments)
    .set({ checkedAt: at })
    .where(and(eq(payments.idempotencyKey, paymentKey), isNotNull(payments.refundOwedAt), dueNow(at)))
    .returning();
  return claimed;
}

/**
 * Claims the refund owed longest for one of `reasons` on one of `providers` that is due, skipping rows another
 * instance holds: checked_at moved in a transaction of its own.
 */
export function claimNextOwedRefund(
  db: Database,
  reasons: RefundReason[],
  providers: PaymentProvider[],
  at: Date,
): Promise<Payment | undefined> {
  const due = and(
    isNotNull(payments.refundOwedAt),
    inArray(payments.refundReason, reasons),
    inArray(payments.provider, providers),
    dueNow(at),
  );
  return claimNextRow(db, payments, due, payments.refundOwedAt, at);
}

/**
 * The provider reports the payment with this key refunded in full by other means (its dashboard) while it was owed
 * back for a reason only the operator returns (a suspension, another amount than asked): nothing is owed any more,
 * and the queue no longer shows it. The reasons the passes refund keep their mark: the pass records the refund and
 * sends its email (refunds-owed.ts).
 */
export async function settleOwedRefundedElsewhere(tx: DatabaseExecutor, paymentKey: string): Promise<void> {
  await tx
    .update(payments)
    .set({ refundOwedAt: null })
    .where(
      and(
        eq(payments.idempotencyKey, paymentKey),
        eq(payments.state, 'refunded'),
        inArray(payments.refundReason, ['suspension', 'amount_mismatch']),
      ),
    );
}

/** The refund was made in full: the payment refunded (a disputed one stays disputed) and no longer owed. */
export async function recordRefundMade(tx: DatabaseExecutor, payment: Payment): Promise<void> {
  await tx
    .update(payments)
    .set({
      state: payment.state === 'disputed' ? 'disputed' : 'refunded',
      refundedAmount: payment.amount,
      refundOwedAt: null,
    })
    .where(eq(payments.id, payment.id));
}

/** The provider refused the refund for good: no longer owed, recorded as failed with its code. False if not owed. */
export async function recordRefundRefused(
  tx: DatabaseExecutor,
  paymentId: string,
  code: string,
  at: Date,
): Promise<boolean> {
  const [changed] = await tx
    .update(payments)
    .set({ refundOwedAt: null, refundFailedAt: at, refundFailure: code })
    .where(and(eq(payments.id, paymentId), isNotNull(payments.refundOwedAt)))
    .returning({ id: payments.id });
  return changed !== undefined;
}
