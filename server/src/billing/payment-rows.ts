import { and, desc, eq, inArray } from 'drizzle-orm';
import type { PaymentState } from '../db/column-values';
import type { DatabaseExecutor } from '../db/open-database';
import { payments } from '../db/schema/billing';
import type { ChargeOutcome } from '../payments/processor';

// Payments as rows, whichever path takes them (a sign-up, a renewal, a restart): booked once by their idempotency
// key, found by it, and locked for the transaction that settles or refunds them.

export type Payment = typeof payments.$inferSelect;
export type NewPayment = typeof payments.$inferInsert;

/**
 * A payment booked by its idempotency key: inserted, or, when a row holds the key already (the attempt's pending
 * payment, a replayed answer), that row changed with `rebooked`.
 */
export async function bookPaymentByKey(
  db: DatabaseExecutor,
  payment: NewPayment,
  rebooked: Partial<NewPayment>,
): Promise<Payment> {
  const [row] = await db
    .insert(payments)
    .values(payment)
    .onConflictDoUpdate({ target: payments.idempotencyKey, set: rebooked })
    .returning();
  if (!row) throw new Error('the payment was not recorded');
  return row;
}

/** A payment inserted unless a row holds its idempotency key already (that one stands). */
export async function bookPaymentOnce(db: DatabaseExecutor, payment: NewPayment): Promise<void> {
  await db.insert(payments).values(payment).onConflictDoNothing({ target: payments.idempotencyKey });
}

export async function paymentByKey(db: DatabaseExecutor, idempotencyKey: string): Promise<Payment | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.idempotencyKey, idempotencyKey));
  return row;
}

/** A pending payment's answer recorded: its state, the provider's reference, and the failure's code or the card. */
export async function recordPaymentOutcome(
  tx: DatabaseExecutor,
  payment: Payment,
  outcome: Exclude<ChargeOutcome, { outcome: 'pending' }>,
  at: Date,
): Promise<Payment> {
  const [row] = await tx
    .update(payments)
    .set({
      providerRef: outcome.providerRef ?? payment.providerRef,
      state: outcome.outcome,
      failureCode: outcome.outcome === 'failed' ? outcome.failureCode : null,
      cardBrand: outcome.outcome === 'succeeded' ? outcome.cardBrand : null,
      cardLast4: outcome.outcome === 'succeeded' ? outcome.cardLast4 : null,
      settledAt: at,
    })
    .where(eq(payments.id, payment.id))
    .returning();
  if (!row) throw new Error('the payment was not found');
  return row;
}

/** The payment, its row locked for the caller's transaction. */
export async function lockPayment(tx: DatabaseExecutor, paymentId: string): Promise<Payment | undefined> {
  const [row] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
  return row;
}

/** The payment with this idempotency key, its row locked for the caller's transaction. */
export async function lockPaymentByKey(tx: DatabaseExecutor, idempotencyKey: string): Promise<Payment | undefined> {
  const [row] = await tx.select().from(payments).where(eq(payments.idempotencyKey, idempotencyKey)).for('update');
  return row;
}

/** The newest payment in one of `states` with this provider's reference, its row locked for the caller's transaction. */
export async function lockNewestPaymentByRef(
  tx: DatabaseExecutor,
  providerRef: string,
  states: readonly PaymentState[],
): Promise<Payment | undefined> {
  const [row] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.providerRef, providerRef), inArray(payments.state, [...states])))
    .orderBy(desc(payments.createdAt))
    .limit(1)
    .for('update');
  return row;
}

export async function updatePayment(
  tx: DatabaseExecutor,
  paymentId: string,
  changes: Partial<NewPayment>,
): Promise<void> {
  await tx.update(payments).set(changes).where(eq(payments.id, paymentId));
}

/** The account's payments, newest first (at most 500). */
export function paymentsOf(db: DatabaseExecutor, userId: string) {
  return db.select().from(payments).where(eq(payments.userId, userId)).orderBy(desc(payments.createdAt)).limit(500);
}

/** A renewal payment of this subscription for `periodIndex` that still waits for the payer (or the provider). */
export async function pendingRenewalPayment(
  db: DatabaseExecutor,
  subscriptionId: string,
  periodIndex: number,
): Promise<Payment | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.subscriptionId, subscriptionId),
        eq(payments.kind, 'renewal'),
        eq(payments.periodIndex, periodIndex),
        eq(payments.state, 'pending'),
      ),
    )
    .limit(1);
  return row;
}
