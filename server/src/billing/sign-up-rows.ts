import type { User } from '../auth/users';
import { and, eq } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { users } from '../db/schema/accounts';
import { payments, subscriptions } from '../db/schema/billing';
import type { NewPayment } from './payment-rows';
import type { Subscription } from './subscription-rows';

// What a sign-up attempt writes besides its registration (registration-rows.ts): the new account, its trial
// subscription, and changes to the attempt's payments (booked in payment-rows.ts). What to write, and when, is
// sign-ups.ts's.

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
