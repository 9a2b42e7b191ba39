import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { pushSubscriptions } from '../db/schema/accounts';

type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

/** The browsers where this subscriber turned notifications on, oldest first. */
export function pushSubscriptionsOf(db: DatabaseExecutor, userId: string): Promise<PushSubscriptionRow[]> {
  return db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.createdAt));
}

/** Browsers one account keeps notifications on in: a new one beyond this replaces the oldest. */
export const MAX_PUSH_SUBSCRIPTIONS = 10;

/**
 * Stores a browser's subscription for this subscriber. A browser has one endpoint: if another account signed in
 * there had it, it is this subscriber's now (the browser tells whoever is signed in, not someone before them).
 */
export async function savePushSubscription(
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
  const devices = await pushSubscriptionsOf(db, userId);
  const extra = devices.slice(0, Math.max(0, devices.length - MAX_PUSH_SUBSCRIPTIONS));
  if (extra.length > 0) {
    await db.delete(pushSubscriptions).where(
      inArray(
        pushSubscriptions.id,
        extra.map((device) => device.id),
      ),
    );
  }
}

/** Removes this subscriber's subscription of a browser; answers whether there was one. */
export async function removePushSubscription(db: DatabaseExecutor, userId: string, endpoint: string): Promise<boolean> {
  const removed = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  return removed.length > 0;
}
