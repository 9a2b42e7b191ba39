import type { FastifyInstance } from 'fastify';
import { contactMessageEmail, type ContactMessage } from '../../messages/contact-message';
import { insertContactMessage } from './data';

/** What the contact form uses of the server: the database and the outbox. */
export type ContactDeps = Pick<FastifyInstance, 'db' | 'outbox'>;

/**
 * Stores a contact-form message and queues the operator's copy (Reply-To the sender) in the same transaction, so
 * a stored message is never left unsent.
 */
export async function sendContactMessage(
  deps: ContactDeps,
  message: Omit<ContactMessage, 'id' | 'receivedAt'>,
  operatorAddress: string,
): Promise<void> {
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
