import { eq } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { subscriptions } from '../db/schema/billing';

/** Ends an account's subscription at `now`, as a failed renewal would; undefined when it has none. */
export async function expireSubscriptionAt(db: DatabaseExecutor, userId: string, now: Date) {
  const [updated] = await db
    .update(subscriptions)
    .set({ status: 'expired', validUntil: now, updatedAt: now })
    .where(eq(subscriptions.userId, userId))
    .returning();
  return updated;
}
