import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { pushSubscriptions } from '../db/schema/accounts';

// Browsers' push subscriptions, as rows: every query the push subscription rules (push-subscriptions.ts) make.

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

/** A subscriber's browsers, oldest first. */
export function pushSubscriptionRowsOf(db: DatabaseExecutor, userId: string): Promise<PushSubscriptionRow[]> {
  return db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.createdAt));
}

/** Stores a browser's subscription for `userId`, taking it over (created now) if its endpoint is stored already. */
export async function upsertPushSubscription(
  db: DatabaseExecutor,
  userId: string,
  subscription: { endpoint: string; p256dh: string; auth: string },
): Promise<void> {
  await db
    .insert(pushSubscriptions)
    .values({ userId, ...subscription })
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { userId, p256dh: subscription.p256dh, auth: subscription.auth, createdAt: new Date() },
    });
}

export async function deletePushSubscriptions(db: DatabaseExecutor, ids: string[]): Promise<void> {
  await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, ids));
}

/** Deletes a subscriber's subscription of an endpoint; whether there was one. */
export async function deleteOwnPushSubscription(
  db: DatabaseExecutor,
  userId: string,
  endpoint: string,
): Promise<boolean> {
  const removed = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  return removed.length > 0;
}
