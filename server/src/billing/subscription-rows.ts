import { eq } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { users } from '../db/schema/accounts';
import { subscriptions } from '../db/schema/billing';

// A subscription as rows: found, locked for the transaction that changes it, and changed. When to cancel, restart,
// end or give one back is the rules' (subscriptions.ts, restarts.ts, payment-reversals.ts); renewal-rows.ts holds
// the renewal job's own queries.

export type Subscription = typeof subscriptions.$inferSelect;
type SubscriptionChanges = Partial<typeof subscriptions.$inferInsert>;

export async function findSubscription(db: DatabaseExecutor, userId: string): Promise<Subscription | undefined> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
  return row;
}

export async function findSubscriptionById(db: DatabaseExecutor, id: string): Promise<Subscription | undefined> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id));
  return row;
}

/** The subscription by its id, its row locked for the caller's transaction. */
export async function lockSubscription(tx: DatabaseExecutor, id: string): Promise<Subscription | undefined> {
  const [row] = await tx.select().from(subscriptions).where(eq(subscriptions.id, id)).for('update');
  return row;
}

/** The account's subscription, its row locked for the caller's transaction. */
export async function lockSubscriptionOf(tx: DatabaseExecutor, userId: string): Promise<Subscription | undefined> {
  const [row] = await tx.select().from(subscriptions).where(eq(subscriptions.userId, userId)).for('update');
  return row;
}

/** A subscription with its subscriber, the subscription row locked for the caller's transaction. */
export async function lockSubscriptionWithUser(tx: DatabaseExecutor, subscriptionId: string) {
  const [row] = await tx
    .select({ subscription: subscriptions, user: users })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(eq(subscriptions.id, subscriptionId))
    .for('update', { of: subscriptions });
  return row;
}

export async function updateSubscription(
  tx: DatabaseExecutor,
  id: string,
  changes: SubscriptionChanges,
): Promise<void> {
  await tx.update(subscriptions).set(changes).where(eq(subscriptions.id, id));
}

/** The subscription changed, as it is now. */
export async function changeSubscription(
  tx: DatabaseExecutor,
  id: string,
  changes: SubscriptionChanges,
): Promise<Subscription | undefined> {
  const [row] = await tx.update(subscriptions).set(changes).where(eq(subscriptions.id, id)).returning();
  return row;
}
