import { and, eq, gt, inArray, lte, not, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { PaymentProvider } from '../db/column-values';
import type { DatabaseExecutor } from '../db/open-database';
import { users } from '../db/schema/accounts';
import { subscriptions } from '../db/schema/billing';
import type { User } from '../auth/users';
import type { Subscription } from './subscription-rows';
import { SANDBOX_LOCAL_METHOD } from './subscriptions';

// The renewal job's queries: which subscriptions are due, locked for one instance, and the changes a renewal makes.
// The rules (when to remind, charge, end or extend) are in renewals.ts.

export interface SubscriptionWithUser {
  subscription: Subscription;
  user: User;
}

const renewing = inArray(subscriptions.status, ['trial', 'active']);
const ofUser = (userId: string | undefined) => (userId ? eq(subscriptions.userId, userId) : undefined);

/** renewsWhenPaid (subscriptions.ts) in SQL: paid with QRIS, an e-wallet or a transfer, nothing saved to charge. */
const renewsWhenPaidSql = or(
  eq(subscriptions.provider, 'midtrans'),
  and(
    eq(subscriptions.provider, 'sandbox'),
    sql`${subscriptions.providerPaymentMethodRef} is not distinct from ${SANDBOX_LOCAL_METHOD}`,
  ),
)!;

/**
 * The renewing subscription (of `userId` when given) that `due` selects, ending first, with its subscriber, locked
 * for the caller's transaction (skipping rows another instance holds).
 */
async function lockFirstRenewing(
  tx: DatabaseExecutor,
  due: (SQL | undefined)[],
  userId: string | undefined,
): Promise<SubscriptionWithUser | undefined> {
  const [row] = await tx
    .select({ subscription: subscriptions, user: users })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(and(renewing, ...due, ofUser(userId)))
    .orderBy(subscriptions.validUntil)
    .limit(1)
    .for('update', { of: subscriptions, skipLocked: true });
  return row;
}

/** Cancelled subscriptions whose paid period is over become expired; answers how many. */
export async function expireEndedCancellations(db: DatabaseExecutor, at: Date, userId?: string): Promise<number> {
  const rows = await db
    .update(subscriptions)
    .set({ status: 'expired', updatedAt: at })
    .where(and(eq(subscriptions.status, 'cancelled'), lte(subscriptions.validUntil, at), ofUser(userId)))
    .returning({ id: subscriptions.id });
  return rows.length;
}

/**
 * A renewing subscription whose renewal falls between `at` and `horizon` and whose subscriber has not been
 * reminded this period, locked. `notRenewing`: providers whose subscriptions will not renew here (none reminded).
 * One that renews only when paid is not among them: nothing renews it by itself (it gets the reminders to pay).
 */
export async function lockNextReminderDue(
  tx: DatabaseExecutor,
  at: Date,
  horizon: Date,
  userId?: string,
  notRenewing: readonly PaymentProvider[] = [],
): Promise<SubscriptionWithUser | undefined> {
  const due = [
    sql`${subscriptions.validUntil} > ${at}`,
    lte(subscriptions.validUntil, horizon),
    sql`${subscriptions.reminderSentForPeriod} is distinct from ${subscriptions.periodIndex}`,
    notRenewing.length > 0 ? notInArray(subscriptions.provider, [...notRenewing]) : undefined,
    not(renewsWhenPaidSql),
  ];
  return lockFirstRenewing(tx, due, userId);
}

/**
 * A running subscription that renews only when paid, whose period (begun by `at`: not one paid ahead) ends after
 * `at` and by `firstAt`, and that is owed a reminder to pay: none yet this period, or only the first one while the
 * period now ends by `lastAt`. Locked; none of `skip`, nor of the `notRenewing` providers.
 */
export async function lockNextPayReminderDue(
  tx: DatabaseExecutor,
  at: Date,
  reminders: { firstAt: Date; lastAt: Date; lastDays: number },
  skip: ReadonlySet<string>,
  userId?: string,
  notRenewing: readonly PaymentProvider[] = [],
): Promise<SubscriptionWithUser | undefined> {
  const due = [
    renewsWhenPaidSql,
    lte(subscriptions.currentPeriodStart, at),
    gt(subscriptions.validUntil, at),
    lte(subscriptions.validUntil, reminders.firstAt),
    or(
      sql`${subscriptions.payReminderPeriod} is distinct from ${subscriptions.periodIndex}`,
      and(gt(subscriptions.payReminderDays, reminders.lastDays), lte(subscriptions.validUntil, reminders.lastAt)),
    ),
    skip.size > 0 ? notInArray(subscriptions.id, [...skip]) : undefined,
    notRenewing.length > 0 ? notInArray(subscriptions.provider, [...notRenewing]) : undefined,
  ];
  return lockFirstRenewing(tx, due, userId);
}

/** The reminder to pay sent `days` before the end of the subscription's current period. */
export async function markPayReminderSent(tx: DatabaseExecutor, subscription: Subscription, days: number) {
  await tx
    .update(subscriptions)
    .set({ payReminderPeriod: subscription.periodIndex, payReminderDays: days })
    .where(eq(subscriptions.id, subscription.id));
}

export async function markReminderSent(tx: DatabaseExecutor, subscription: Subscription): Promise<void> {
  await tx
    .update(subscriptions)
    .set({ reminderSentForPeriod: subscription.periodIndex })
    .where(eq(subscriptions.id, subscription.id));
}

/**
 * The renewing subscription due the longest (its paid period ended by `at`), but none of `skip`, locked.
 */
export async function lockNextRenewalDue(
  tx: DatabaseExecutor,
  at: Date,
  skip: ReadonlySet<string>,
  userId?: string,
): Promise<SubscriptionWithUser | undefined> {
  const due = [lte(subscriptions.validUntil, at), skip.size > 0 ? notInArray(subscriptions.id, [...skip]) : undefined];
  return lockFirstRenewing(tx, due, userId);
}

/** Ends a subscription now: no more renewals, no more access. */
export async function endSubscription(tx: DatabaseExecutor, subscriptionId: string, at: Date): Promise<void> {
  await tx.update(subscriptions).set({ status: 'expired', updatedAt: at }).where(eq(subscriptions.id, subscriptionId));
}

/** A renewed period: the subscription active from `currentPeriodStart` until `validUntil`. */
export async function extendSubscription(
  tx: DatabaseExecutor,
  subscriptionId: string,
  period: { periodIndex: number; currentPeriodStart: Date; validUntil: Date },
  at: Date,
): Promise<void> {
  await tx
    .update(subscriptions)
    .set({ status: 'active', ...period, updatedAt: at })
    .where(eq(subscriptions.id, subscriptionId));
}
