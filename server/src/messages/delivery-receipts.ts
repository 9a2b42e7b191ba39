import type { ReceiptState } from '../db/column-values';
import type { Database, DatabaseExecutor } from '../db/open-database';
import { lockReceiptMessage, recordReceipt, type ReceiptMessageRef } from './delivery-receipt-rows';

// A provider's delivery receipts for the messages it took (Twilio's status callbacks: SMS and WhatsApp alike), kept
// on the message: each receipt is stored once, and only when it moves the message forward.

/** The channels whose messages take receipts. */
export const RECEIPT_CHANNELS = ['sms', 'whatsapp'] as const;

export interface DeliveryReceipt {
  /** The message: by the provider's reference (a callback), or by its own id (the local outbox's dev tools). */
  message: ReceiptMessageRef;
  state: ReceiptState;
  /** The provider's error code for a failure (Twilio's ErrorCode), kept to say why. */
  errorCode: string | null;
}

// How far along each state is; a failure is final whatever came before it.
const PROGRESS: Record<ReceiptState, number> = { queued: 0, sent: 1, delivered: 2, read: 3, failed: 4, undelivered: 4 };
const isFinal = (state: ReceiptState) => state === 'failed' || state === 'undelivered';

/**
 * Whether a receipt changes what is stored: never after a failure (final); a failure after any progress; progress
 * only forward (a late "sent" never replaces "delivered", a replay changes nothing).
 */
export function receiptMovesForward(current: ReceiptState | null, incoming: ReceiptState): boolean {
  if (current === null) return true;
  if (isFinal(current)) return false;
  return PROGRESS[incoming] > PROGRESS[current];
}

export type ReceiptOutcome =
  /** No message of ours has that reference (or it takes no receipts): nothing to do. */
  | { kind: 'unknown' }
  /** Known, but the receipt is old news: nothing changed. */
  | { kind: 'unchanged'; messageId: string }
  | { kind: 'recorded'; messageId: string; previous: ReceiptState | null };

/**
 * Records a receipt on its message, inside the caller's transaction, the message's row locked so that two callbacks
 * at once are taken one after the other. `onRecorded` runs in the same transaction when the receipt was stored.
 */
export async function applyDeliveryReceipt(
  db: Database,
  receipt: DeliveryReceipt,
  onRecorded: (tx: DatabaseExecutor, messageId: string, previous: ReceiptState | null) => Promise<void>,
): Promise<ReceiptOutcome> {
  return db.transaction(async (tx) => {
    const message = await lockReceiptMessage(tx, receipt.message, RECEIPT_CHANNELS);
    if (!message) return { kind: 'unknown' } as const;
    if (!receiptMovesForward(message.receipt, receipt.state)) {
      return { kind: 'unchanged', messageId: message.id } as const;
    }
    await recordReceipt(tx, message.id, receipt.state, isFinal(receipt.state) ? receipt.errorCode : null);
    await onRecorded(tx, message.id, message.receipt);
    return { kind: 'recorded', messageId: message.id, previous: message.receipt } as const;
  });
}
