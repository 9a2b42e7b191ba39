import { and, desc, eq, isNotNull, isNull, notExists, sql } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { contactMessages } from '../db/schema/accounts';
import { locationRequests } from '../db/schema/location-requests';
import { outboxMessages } from '../db/schema/outbox';

// The contact messages' and the failed messages' queries for the console. The rules are in desk-queues.ts.

export function contactMessagePage(db: DatabaseExecutor, answered: boolean, limit: number) {
  return db
    .select()
    .from(contactMessages)
    .where(answered ? isNotNull(contactMessages.answeredAt) : isNull(contactMessages.answeredAt))
    .orderBy(desc(contactMessages.createdAt))
    .limit(limit);
}

/** Marks a contact message read (the first reading kept); undefined when there is no such message. */
export async function markContactRead(db: DatabaseExecutor, id: string, at: Date) {
  const [row] = await db
    .update(contactMessages)
    .set({ readAt: sql`coalesce(${contactMessages.readAt}, ${at.toISOString()}::timestamptz)` })
    .where(eq(contactMessages.id, id))
    .returning();
  return row;
}

/** Marks a contact message answered, with the operator's note (read too, if it was not). */
export async function markContactAnswered(db: DatabaseExecutor, id: string, at: Date, note: string | null) {
  const [row] = await db
    .update(contactMessages)
    .set({
      readAt: sql`coalesce(${contactMessages.readAt}, ${at.toISOString()}::timestamptz)`,
      answeredAt: sql`coalesce(${contactMessages.answeredAt}, ${at.toISOString()}::timestamptz)`,
      answerNote: note,
    })
    .where(eq(contactMessages.id, id))
    .returning();
  return row;
}

/**
 * Whether the outbox row carried a location request's consent link (forgotten once it failed for good). Written out
 * whole: inside a select from outbox_messages an unqualified "id" would be the request's.
 */
const carriesRequestLink = () => sql<boolean>`exists (select 1 from location_requests
  where location_requests.message_id = outbox_messages.id)`;

/** Outgoing messages that failed for good, newest first: whether each carried a request's link too. */
export function failedMessagePage(db: DatabaseExecutor, limit: number) {
  return db
    .select({
      id: outboxMessages.id,
      channel: outboxMessages.channel,
      recipient: outboxMessages.recipient,
      subject: outboxMessages.subject,
      attempts: outboxMessages.attempts,
      lastError: outboxMessages.lastError,
      createdAt: outboxMessages.createdAt,
      requestLink: carriesRequestLink().mapWith(Boolean),
    })
    .from(outboxMessages)
    .where(eq(outboxMessages.state, 'failed'))
    .orderBy(desc(outboxMessages.createdAt))
    .limit(limit);
}

export async function outboxMessageState(db: DatabaseExecutor, id: string) {
  const [row] = await db
    .select({ state: outboxMessages.state, requestLink: carriesRequestLink().mapWith(Boolean) })
    .from(outboxMessages)
    .where(eq(outboxMessages.id, id));
  return row;
}

/**
 * Puts a failed message back in the queue, due now with its attempts reset; only while it is failed (a second
 * retry finds it queued and changes nothing) and never one that carried a request's link (the link is gone).
 */
export async function requeueFailed(db: DatabaseExecutor, id: string): Promise<boolean> {
  const requeued = await db
    .update(outboxMessages)
    .set({ state: 'queued', attempts: 0, nextAttemptAt: sql`now()` })
    .where(
      and(
        eq(outboxMessages.id, id),
        eq(outboxMessages.state, 'failed'),
        notExists(
          db
            .select({ one: sql`1` })
            .from(locationRequests)
            .where(eq(locationRequests.messageId, id)),
        ),
      ),
    )
    .returning({ id: outboxMessages.id });
  return requeued.length > 0;
}
