import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { users } from '../db/schema/accounts';
import { payments, subscriptions } from '../db/schema/billing';
import { locationRequests } from '../db/schema/location-requests';
import { accountSuspensions } from '../db/schema/safety-desk';
import type { SuspensionRow } from './standing-suspension-rows';
import { CANCELLABLE_CONSENTS } from '../requests/cancel-request';

// The suspensions' queries: the standing one of an account or an email, the changes a suspension makes. The rules
// are in suspensions.ts.

const standing = isNull(accountSuspensions.liftedAt);

export async function insertSuspension(
  db: DatabaseExecutor,
  values: typeof accountSuspensions.$inferInsert,
): Promise<SuspensionRow> {
  const [row] = await db.insert(accountSuspensions).values(values).returning();
  return row!;
}

/** Lifts a standing suspension; undefined when there is none with this id (or it was lifted already). */
export async function markLifted(
  db: DatabaseExecutor,
  id: string,
  lift: { liftedBy: string; liftNote: string; liftedAt: Date },
): Promise<SuspensionRow | undefined> {
  const [row] = await db
    .update(accountSuspensions)
    .set(lift)
    .where(and(eq(accountSuspensions.id, id), standing))
    .returning();
  return row;
}

/** Every suspension, standing and lifted, newest first, with the account's name while it exists. */
export function suspensionsWithNames(db: DatabaseExecutor, limit: number) {
  return db
    .select({ suspension: accountSuspensions, displayName: users.displayName })
    .from(accountSuspensions)
    .leftJoin(users, eq(users.id, accountSuspensions.userId))
    .orderBy(desc(accountSuspensions.suspendedAt), desc(accountSuspensions.id))
    .limit(limit);
}

/**
 * Cancels every request of the account the recipient could still act on (unanswered, sharing, stopped for now),
 * as the requester's own Cancel does: the link stops working and any live window closes. Answers their ids.
 */
export async function cancelOpenRequestsOf(db: DatabaseExecutor, userId: string, at: Date): Promise<string[]> {
  const cancelled = await db
    .update(locationRequests)
    .set({ consent: 'cancelled', cancelledAt: at, liveUntil: null })
    .where(and(eq(locationRequests.userId, userId), inArray(locationRequests.consent, [...CANCELLABLE_CONSENTS])))
    .returning({ id: locationRequests.id });
  return cancelled.map((row) => row.id);
}

/** The account's subscription, locked, if it has one. */
export async function lockSubscriptionOf(db: DatabaseExecutor, userId: string) {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).for('update');
  return row;
}

/** The payment that paid for the subscription's current period: succeeded, not refunded, not disputed. */
export async function paymentOfPeriod(db: DatabaseExecutor, subscriptionId: string, periodIndex: number) {
  const [row] = await db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.subscriptionId, subscriptionId),
        eq(payments.periodIndex, periodIndex),
        eq(payments.state, 'succeeded'),
        isNull(payments.refundOwedAt),
      ),
    )
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return row;
}

/** A suspended account's subscription renews no more: cancelled now (renewals take only trial and active ones). */
export async function stopRenewing(db: DatabaseExecutor, subscriptionId: string, at: Date): Promise<void> {
  await db
    .update(subscriptions)
    .set({ status: 'cancelled', cancelledAt: at, updatedAt: at })
    .where(and(eq(subscriptions.id, subscriptionId), inArray(subscriptions.status, ['trial', 'active'])));
}
