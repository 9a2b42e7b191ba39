import type { DatabaseExecutor } from '../db/open-database';
import {
  deleteOwnPushSubscription,
  deletePushSubscriptions,
  pushSubscriptionRowsOf,
  upsertPushSubscription,
  type PushSubscriptionRow,
} from './push-subscription-rows';

/** The browsers where this subscriber turned notifications on, oldest first. */
export function pushSubscriptionsOf(db: DatabaseExecutor, userId: string): Promise<PushSubscriptionRow[]> {
  return pushSubscriptionRowsOf(db, userId);
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
  await upsertPushSubscription(db, userId, subscription);
  const devices = await pushSubscriptionsOf(db, userId);
  const extra = devices.slice(0, Math.max(0, devices.length - MAX_PUSH_SUBSCRIPTIONS));
  if (extra.length > 0) {
    await deletePushSubscriptions(
      db,
      extra.map((device) => device.id),
    );
  }
}

/** Removes this subscriber's subscription of a browser; answers whether there was one. */
export async function removePushSubscription(db: DatabaseExecutor, userId: string, endpoint: string): Promise<boolean> {
  return deleteOwnPushSubscription(db, userId, endpoint);
}
