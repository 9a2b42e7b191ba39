import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ReceiptState } from '../db/column-values';
import type { DatabaseExecutor } from '../db/open-database';
import { outboxMessages } from '../db/schema/outbox';

// Delivery receipts as rows (messages/delivery-receipts.ts): finding a message by what a receipt names, and storing it.

type OutboxChannel = (typeof outboxMessages.$inferSelect)['channel'];

/** How a receipt names its message: the provider's reference, or the message's own id. */
export type ReceiptMessageRef = { transport: string; providerRef: string } | { id: string };

/** The message a receipt names, among the given channels, locked for the rest of the transaction. */
export async function lockReceiptMessage(
  db: DatabaseExecutor,
  ref: ReceiptMessageRef,
  channels: readonly OutboxChannel[],
): Promise<{ id: string; receipt: ReceiptState | null } | undefined> {
  const named =
    'id' in ref
      ? eq(outboxMessages.id, ref.id)
      : and(eq(outboxMessages.transport, ref.transport), eq(outboxMessages.providerRef, ref.providerRef));
  const [row] = await db
    .select({ id: outboxMessages.id, receipt: outboxMessages.receipt })
    .from(outboxMessages)
    .where(and(named, inArray(outboxMessages.channel, [...channels])))
    .for('update');
  return row;
}

export async function recordReceipt(
  db: DatabaseExecutor,
  id: string,
  state: ReceiptState,
  errorCode: string | null,
): Promise<void> {
  await db
    .update(outboxMessages)
    .set({ receipt: state, receiptErrorCode: errorCode, receiptAt: sql`now()` })
    .where(eq(outboxMessages.id, id));
}
