import { and, eq, inArray, isNull, lt, lte, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../db/open-database';
import { payments, registrations } from '../db/schema/billing';
import type { Payment } from './payment-rows';
import { RECONCILIATION_LIMITS } from './reconciliation-limits';
import type { RegistrationRow } from './registration-rows';

// The reconciliation jobs' claims: which row a pass asks a provider about next, taken by one instance at a time.
// What is asked, and what an answer changes, is in sign-up-reconciliation.ts, renewal-reconciliation.ts and
// refunds-owed.ts.

/** Not taken by any instance within the recheck interval (or never). */
export function notCheckedRecently(at: Date, checkedAt: AnyColumn): SQL {
  return or(isNull(checkedAt), lte(checkedAt, new Date(at.getTime() - RECONCILIATION_LIMITS.recheckEveryMs)))!;
}

/** Old enough to ask about, and not asked by any instance within the recheck interval. */
function dueForCheck(at: Date, createdAt: AnyColumn, checkedAt: AnyColumn): SQL[] {
  return [
    lte(createdAt, new Date(at.getTime() - RECONCILIATION_LIMITS.firstCheckAfterMs)),
    notCheckedRecently(at, checkedAt),
  ];
}

/** The tables a reconciliation pass claims rows of: each row says when an instance last took it (checked_at). */
type ClaimedTable = typeof payments | typeof registrations;

/**
 * Claims one row for a pass: the first by `order` of those `where` selects, skipping rows another instance holds;
 * its checked_at moves to `at` in the same short transaction, so no other instance (nor this pass) takes it again
 * before the recheck interval. The provider is asked outside any transaction.
 */
export function claimNextRow<Table extends ClaimedTable>(
  db: Database,
  table: Table,
  where: SQL | undefined,
  order: AnyPgColumn,
  at: Date,
): Promise<Table['$inferSelect'] | undefined> {
  // One body for both tables: drizzle cannot type a query over a union of tables, which share these columns.
  const claimed = table as typeof payments;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(claimed)
      .where(where)
      .orderBy(order)
      .limit(1)
      .for('update', { skipLocked: true });
    if (!row) return undefined;
    await tx.update(claimed).set({ checkedAt: at }).where(eq(claimed.id, row.id));
    return row as Table['$inferSelect'];
  });
}

const UNKNOWN_AFTER_SECONDS = RECONCILIATION_LIMITS.unknownAfterMs / 1000;

/**
 * Claims the next scheduled renewal left pending (a renew after expiry is its sign-up's, asked about by the
 * sign-up job): old enough, not asked recently, not past the long limit (handled once there), not locked by
 * another instance. checked_at moves to `at` in the same short transaction; the provider is asked outside it.
 */
export function claimNextPendingRenewal(db: Database, at: Date): Promise<Payment | undefined> {
  const due = and(
    eq(payments.state, 'pending'),
    eq(payments.kind, 'renewal'),
    isNull(payments.registrationId),
    inArray(payments.provider, ['stripe', 'paypal']),
    ...dueForCheck(at, payments.createdAt, payments.checkedAt),
    or(
      isNull(payments.checkedAt),
      lt(payments.checkedAt, sql`${payments.createdAt} + make_interval(secs => ${UNKNOWN_AFTER_SECONDS})`),
    ),
  );
  return claimNextRow(db, payments, due, payments.createdAt, at);
}

/**
 * Claims the next attempt to ask about: one still being queried, old enough, not asked recently, not locked by
 * another instance. Its checked_at moves to `at` in the same short transaction, so no other instance (nor this
 * pass) takes it again before the recheck interval; the provider is asked outside any transaction.
 */
export function claimNextQueryingRegistration(db: Database, at: Date): Promise<RegistrationRow | undefined> {
  const due = and(
    eq(registrations.state, 'querying'),
    // The sandbox's only waiting attempts are its local payments (QRIS, e-wallets, virtual accounts), which expire.
    inArray(registrations.provider, ['stripe', 'paypal', 'midtrans', 'sandbox']),
    ...dueForCheck(at, registrations.createdAt, registrations.checkedAt),
  );
  return claimNextRow(db, registrations, due, registrations.createdAt, at);
}
