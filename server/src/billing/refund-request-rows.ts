import type { DatabaseExecutor } from '../db/open-database';
import { refundRequests } from '../db/schema/billing';

/** Stores a refund request for the operator; answers its id. */
export async function insertRefundRequest(
  db: DatabaseExecutor,
  values: typeof refundRequests.$inferInsert,
): Promise<string> {
  const [row] = await db.insert(refundRequests).values(values).returning({ id: refundRequests.id });
  if (!row) throw new Error('the refund request was not stored');
  return row.id;
}
