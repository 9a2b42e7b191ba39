import { eq } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { localPayments } from '../db/schema/billing';

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
