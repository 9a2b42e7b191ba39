import type { Database } from '../db/open-database';
import { HttpError } from '../lib/envelope';
import { maskedEmail } from '../messages/templates';
import type { MessageOutbox } from '../messages/message-outbox';
import { recordOperatorAction } from '../operators/audit-log-rows';
import {
  contactMessagePage,
  failedMessagePage,
  markContactAnswered,
  markContactRead,
  outboxMessageState,
  requeueFailed,
} from './desk-queue-rows';
import { maskedTarget } from './reports';
import { sayDesk } from './desk-messages';
import type { ActingOperator } from './suspensions';

// The console's other queues: contact messages (read, answered) and outgoing messages that failed for good (retry).

const QUEUE_SIZE = 200;

type ContactRow = Awaited<ReturnType<typeof contactMessagePage>>[number];

function contactView(row: ContactRow) {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    name: row.name,
    email: row.email,
    topic: row.topic,
    message: row.message,
    locale: row.locale,
    readAt: row.readAt?.toISOString() ?? null,
    answeredAt: row.answeredAt?.toISOString() ?? null,
    answerNote: row.answerNote,
  };
}

/** Contact messages still to answer (`open`), or answered ones, newest first. */
export async function contactMessages(db: Database, state: 'open' | 'answered') {
  const rows = await contactMessagePage(db, state === 'answered', QUEUE_SIZE);
  return { messages: rows.map(contactView) };
}

/** Marks a contact message read or answered, audited with it; 404 for no such message. Asked again: the same. */
export async function markContactMessage(
  db: Database,
  operator: ActingOperator,
  id: string,
  change: { answered: false } | { answered: true; note: string | null },
) {
  return db.transaction(async (tx) => {
    const at = new Date();
    const row = change.answered
      ? await markContactAnswered(tx, id, at, change.note)
      : await markContactRead(tx, id, at);
    if (!row) throw new HttpError(404, sayDesk('contactMessageNotFound'));
    await recordOperatorAction(tx, {
      operatorId: operator.id,
      action: change.answered ? 'contact_message.answered' : 'contact_message.read',
      objectType: 'contact_message',
      objectId: id,
      note: change.answered ? change.note : null,
    });
    return { message: contactView(row) };
  });
}

/** Outgoing messages that failed for good, the recipient masked; `retryable`: not one that carried a request's link. */
export async function failedMessages(db: Database) {
  const rows = await failedMessagePage(db, QUEUE_SIZE);
  return {
    messages: rows.map((row) => ({
      id: row.id,
      channel: row.channel,
      recipient:
        row.channel === 'push'
          ? null
          : row.channel === 'email'
            ? maskedEmail(row.recipient)
            : maskedTarget('sms', row.recipient),
      subject: row.subject,
      attempts: row.attempts,
      lastError: row.lastError,
      createdAt: row.createdAt.toISOString(),
      retryable: !row.requestLink,
    })),
  };
}

/**
 * Sends a failed message again: back in the queue, due now, the dispatcher woken. Idempotent: a message already
 * queued again (or sent since) answers the same. 404 for no such message; 409 for one that carried a location
 * request's link, which was forgotten when it failed (the requester sends a new request instead).
 */
export async function retryFailedMessage(
  db: Database,
  outbox: Pick<MessageOutbox, 'kick'>,
  operator: ActingOperator,
  id: string,
) {
  const state = await db.transaction(async (tx) => {
    const message = await outboxMessageState(tx, id);
    if (!message) throw new HttpError(404, sayDesk('failedMessageNotFound'));
    if (message.requestLink) throw new HttpError(409, sayDesk('requestLinkGone'));
    if (await requeueFailed(tx, id)) {
      await recordOperatorAction(tx, {
        operatorId: operator.id,
        action: 'failed_message.retry',
        objectType: 'outbox_message',
        objectId: id,
        note: null,
      });
      return 'queued' as const;
    }
    return message.state;
  });
  outbox.kick();
  return { id, state };
}
