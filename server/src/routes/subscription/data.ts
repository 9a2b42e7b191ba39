import { desc, eq } from 'drizzle-orm';
import type { DatabaseExecutor } from '../../db/open-database';
import { payments } from '../../db/schema/billing';

// The subscriber's own billing rows the subscription rules (service.ts) read besides the subscription itself.

/** The account's payments, newest first (at most 500). */
export function paymentsOf(db: DatabaseExecutor, userId: string) {
  return db.select().from(payments).where(eq(payments.userId, userId)).orderBy(desc(payments.createdAt)).limit(500);
}
