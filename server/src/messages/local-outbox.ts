import type { DatabaseExecutor } from '../db/open-database';
import { latestOutboxMessages } from './local-outbox-rows';

// The local trial's outbox as the developer reads it (routes/dev-outbox): what would have been emailed, texted or sent
// by WhatsApp.

/** The newest messages in the outbox, to one recipient or to anyone, as the dev tools show them. */
export async function localOutbox(db: DatabaseExecutor, recipient: string | undefined, limit: number) {
  const rows = await latestOutboxMessages(db, recipient, limit);
  return rows.map((row) => ({
    id: row.id,
    channel: row.channel === 'sms' || row.channel === 'whatsapp' ? row.channel : ('email' as const),
    recipient: row.recipient,
    subject: row.subject,
    bodyText: row.bodyText,
    replyTo: row.replyTo,
    locale: row.locale,
    state: row.state,
    transport: row.transport,
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    receipt: row.receipt,
    receiptErrorCode: row.receiptErrorCode,
  }));
}
