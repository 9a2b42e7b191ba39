import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { oneOf, OUTBOX_CHANNELS, OUTBOX_STATES, RECEIPT_STATES } from '../column-values';
import { createdAt } from './columns';

// The message outbox: every email and SMS, written with the change that causes it.

/**
 * Messages to deliver: written with the change that causes them, delivered with retries by the dispatcher. A
 * location request's message carries its consent link only until a provider has taken it (or refused it for
 * good): the token in the stored body then becomes `[token]` (plugins/message-outbox.ts). In the local outbox it stays
 * whole, since reading it there is how a local trial opens the link.
 */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    idempotencyKey: text('idempotency_key').notNull(),
    channel: text('channel', { enum: OUTBOX_CHANNELS }).notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    bodyText: text('body_text').notNull(),
    bodyHtml: text('body_html'),
    // Where a reply goes when it is not the sender (a contact-form message: the visitor who wrote it).
    replyTo: text('reply_to'),
    // Deleted once a provider has taken it (or refused it for good): it goes to an address we no longer keep.
    eraseWhenSent: boolean('erase_when_sent').notNull().default(false),
    locale: text('locale').notNull().default('en'),
    state: text('state', { enum: OUTBOX_STATES }).notNull().default('queued'),
    // 'smtp' when a real provider took it, 'local' when it stays in the local outbox only.
    transport: text('transport'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    // The provider's reference for the message (Twilio's message SID): its delivery receipts name it.
    providerRef: text('provider_ref'),
    // The furthest state the provider's receipts reported (messages/delivery-receipts.ts), with its error code.
    receipt: text('receipt', { enum: RECEIPT_STATES }),
    receiptErrorCode: text('receipt_error_code'),
    receiptAt: timestamp('receipt_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    uniqueIndex('outbox_messages_idempotency_key_unique').on(table.idempotencyKey),
    index('outbox_messages_due_idx').on(table.state, table.nextAttemptAt),
    check('outbox_messages_channel_check', oneOf(table.channel, OUTBOX_CHANNELS)),
    check('outbox_messages_state_check', oneOf(table.state, OUTBOX_STATES)),
    check('outbox_messages_receipt_check', oneOf(table.receipt, RECEIPT_STATES)),
    uniqueIndex('outbox_messages_provider_ref_unique')
      .on(table.transport, table.providerRef)
      .where(sql`${table.providerRef} is not null`),
  ],
);
