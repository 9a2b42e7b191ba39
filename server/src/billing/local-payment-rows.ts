import { and, desc, eq, gt } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { localPayments, payments, registrations } from '../db/schema/billing';

// What a waiting local payment's page shows (local-payments.ts decides when it is written and read).

export type LocalPaymentRow = typeof localPayments.$inferSelect;

export async function insertLocalPayment(
  db: DatabaseExecutor,
  values: typeof localPayments.$inferInsert,
): Promise<LocalPaymentRow> {
  const [row] = await db.insert(localPayments).values(values).returning();
  if (!row) throw new Error('the local payment was not stored');
  return row;
}

export async function findLocalPayment(
  db: DatabaseExecutor,
  registrationId: string,
): Promise<LocalPaymentRow | undefined> {
  const [row] = await db.select().from(localPayments).where(eq(localPayments.registrationId, registrationId));
  return row;
}

/**
 * The newest local payment a subscriber started to pay again (a renewal or a period paid ahead) that still waits for
 * them and is payable at `now`, with its attempt's id; found from the user's payments (indexed by user).
 */
export async function findWaitingLocalPaymentOf(
  db: DatabaseExecutor,
  userId: string,
  now: Date,
): Promise<LocalPaymentRow | undefined> {
  const [row] = await db
    .select({ local: localPayments })
    .from(payments)
    .innerJoin(localPayments, eq(localPayments.registrationId, payments.registrationId))
    .innerJoin(registrations, eq(registrations.id, payments.registrationId))
    .where(
      and(
        eq(payments.userId, userId),
        eq(payments.kind, 'renewal'),
        eq(payments.state, 'pending'),
        eq(registrations.userId, userId),
        eq(registrations.state, 'querying'),
        gt(localPayments.expiresAt, now),
      ),
    )
    .orderBy(desc(localPayments.createdAt))
    .limit(1);
  return row?.local;
}
