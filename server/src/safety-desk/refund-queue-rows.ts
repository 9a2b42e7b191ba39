import { and, desc, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { users } from '../db/schema/accounts';
import { payments, refundRequests, registrations } from '../db/schema/billing';

// The refunds-owed queue's queries: the refund form's open requests (with the payment they would give back), and
// the payments owed back (a suspension, a taken email, a late or duplicate charge), refused by their processor, or
// disputed. The rules are in refund-queue.ts.

export type PaymentRow = typeof payments.$inferSelect;

/** The refund form's requests nobody has answered yet, newest first. */
export function openRefundRequests(db: DatabaseExecutor, limit: number) {
  return db
    .select()
    .from(refundRequests)
    .where(eq(refundRequests.state, 'open'))
    .orderBy(desc(refundRequests.createdAt))
    .limit(limit);
}

export async function openRefundRequestById(db: DatabaseExecutor, id: string, lock = false) {
  const query = db
    .select()
    .from(refundRequests)
    .where(and(eq(refundRequests.id, id), eq(refundRequests.state, 'open')));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** The account's latest payment that money could still be given back from (succeeded, nothing refunded yet). */
export async function latestRefundablePaymentOf(db: DatabaseExecutor, userId: string) {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.userId, userId), eq(payments.state, 'succeeded'), eq(payments.refundedAmount, 0)))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return row;
}

/**
 * A payment the queue shows: owed back, refused for good by its processor and not refunded by hand since, or
 * disputed (the card holder's bank holds the money until the dispute ends).
 */
const inQueue = or(
  isNotNull(payments.refundOwedAt),
  and(isNotNull(payments.refundFailedAt), inArray(payments.state, ['succeeded', 'partly_refunded'])),
  and(eq(payments.state, 'disputed'), isNull(payments.refundReference)),
);

/**
 * The queue's payments with whom to give the money back to: the account's email, or, for a first payment that
 * made no account (the email was taken, another amount was paid), the email its sign-up was made with.
 */
export function queuedPayments(db: DatabaseExecutor, limit: number) {
  return db
    .select({ payment: payments, email: sql<string | null>`coalesce(${users.email}, ${registrations.email})` })
    .from(payments)
    .leftJoin(users, eq(users.id, payments.userId))
    .leftJoin(registrations, eq(registrations.id, payments.registrationId))
    .where(inQueue)
    .orderBy(desc(payments.createdAt))
    .limit(limit);
}

export async function queuedPaymentById(db: DatabaseExecutor, id: string, lock = false) {
  const query = db
    .select()
    .from(payments)
    .where(and(eq(payments.id, id), inQueue));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** The payment given back in full (by its processor, or by hand with the operator's reference). */
export async function recordPaymentRefunded(db: DatabaseExecutor, payment: PaymentRow, reference: string | null) {
  await db
    .update(payments)
    .set({
      state: payment.state === 'disputed' ? 'disputed' : 'refunded',
      refundedAmount: payment.amount,
      refundOwedAt: null,
      refundReference: reference ?? payment.refundReference,
    })
    .where(eq(payments.id, payment.id));
}

export async function recordRequestRefunded(db: DatabaseExecutor, id: string, at: Date, reference: string | null) {
  await db
    .update(refundRequests)
    .set({ state: 'refunded', refundedAt: at, refundReference: reference })
    .where(eq(refundRequests.id, id));
}
