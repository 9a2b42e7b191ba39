import type { User } from '../auth/users';
import { and, eq } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { users } from '../db/schema/accounts';
import { payments, subscriptions } from '../db/schema/billing';
import type { Subscription } from './subscriptions';

// What a sign-up attempt writes besides its registration (registration-rows.ts): the new account, its trial
// subscription, and the attempt's payment, booked once by its key. What to write, and when, is sign-ups.ts's.

type PaymentRow = typeof payments.$inferSelect;
type NewPayment = typeof payments.$inferInsert;

/** The account a sign-up makes; undefined when another account has its email already. */
export async function insertAccountIfEmailFree(
  db: DatabaseExecutor,
  values: typeof users.$inferInsert,
): Promise<User | undefined> {
  const [user] = await db.insert(users).values(values).onConflictDoNothing({ target: users.email }).returning();
  return user;
}

export async function insertSubscription(
  db: DatabaseExecutor,
  values: typeof subscriptions.$inferInsert,
): Promise<Subscription> {
  const [subscription] = await db.insert(subscriptions).values(values).returning();
  if (!subscription) throw new Error('the subscription was not created');
  return subscription;
}

/**
 * A payment booked by its idempotency key: inserted, or, when a row holds the key already (the attempt's pending
 * payment, a replayed answer), that row changed with `rebooked`.
 */
export async function bookPaymentByKey(
  db: DatabaseExecutor,
  payment: NewPayment,
  rebooked: Partial<NewPayment>,
): Promise<PaymentRow> {
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

/** Changes an attempt's payments still pending. */
export async function updatePendingPayments(
  db: DatabaseExecutor,
  registrationId: string,
  changes: Partial<NewPayment>,
): Promise<void> {
  await db
    .update(payments)
    .set(changes)
    .where(and(eq(payments.registrationId, registrationId), eq(payments.state, 'pending')));
}
