import { countAttempt, throttleKey, type ThrottleRule } from '../auth/throttle';
import type { Database } from '../db/open-database';
import { messagesOf } from '../lib/messages';
import { throwWhenLimited } from '../lib/throttle-answer';
import { contactMessageEmail, type ContactMessage } from '../messages/contact-message';
import { insertContactMessage } from './contact-form-rows';
import type { MessageOutbox } from '../messages/message-outbox';

// Generous enough for people behind one carrier-grade NAT (common on Indonesian mobile networks), tight enough
// that the form cannot be used to flood the operator's mailbox. Counted in the database: it holds across instances.
export const CONTACT_PER_IP: ThrottleRule = { limit: 10, windowSeconds: 60 * 60 };

const say = messagesOf('contact');

/** What the contact form uses of the server: the database, the outbox, and the key its throttle hashes with. */
export interface ContactDeps {
  db: Database;
  outbox: MessageOutbox;
  hmacSecret: Buffer;
}

/**
 * Stores a contact-form message and queues the operator's copy (Reply-To the sender) in the same transaction, so
 * a stored message is never left unsent. At most CONTACT_PER_IP from one address `ip` (429 beyond, nothing stored).
 */
export async function sendContactMessage(
  deps: ContactDeps,
  ip: string,
  message: Omit<ContactMessage, 'id' | 'receivedAt'>,
  operatorAddress: string,
): Promise<void> {
  const limit = await countAttempt(deps.db, throttleKey(deps.hmacSecret, 'contact:ip', ip), CONTACT_PER_IP);
  throwWhenLimited(limit, say, 'tooManyMessages');
  await deps.db.transaction(async (tx) => {
    const row = await insertContactMessage(tx, message);
    await deps.outbox.queue(tx, {
      idempotencyKey: `contact-message:${row.id}`,
      to: operatorAddress,
      locale: 'en',
      replyTo: message.email,
      ...contactMessageEmail({ ...message, id: row.id, receivedAt: row.createdAt }),
    });
  });
  deps.outbox.kick();
}
