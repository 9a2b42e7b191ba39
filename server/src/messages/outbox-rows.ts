import { and, eq, inArray, sql } from 'drizzle-orm';
import { queryRows, type DatabaseExecutor } from '../db/open-database';
import { locationRequests } from '../db/schema/location-requests';
import { outboxMessages } from '../db/schema/outbox';

// The outbox's delivery, as rows: every statement the delivery loop (plugins/message-outbox.ts) makes.

type OutboxChannel = (typeof outboxMessages.$inferSelect)['channel'];

/**
 * Queues a message unless one with its idempotency key is queued already (then null): the id of the new message.
 */
export async function insertOutboxMessage(
  db: DatabaseExecutor,
  values: typeof outboxMessages.$inferInsert,
): Promise<string | null> {
  const [row] = await db
    .insert(outboxMessages)
    .values(values)
    .onConflictDoNothing({ target: outboxMessages.idempotencyKey })
    .returning({ id: outboxMessages.id });
  return row?.id ?? null;
}

/** A message claimed for delivery, as its columns are named. */
export interface ClaimedMessage {
  id: string;
  channel: OutboxChannel;
  recipient: string;
  subject: string | null;
  body_text: string;
  body_html: string | null;
  reply_to: string | null;
  erase_when_sent: boolean;
  attempts: number;
  locale: string;
}

/**
 * Claims up to `limit` queued messages of a channel that are due, oldest first: each counts an attempt and its next
 * attempt moves `leaseSeconds` away, so another instance skips them (skip locked), and a crash mid-send means a retry
 * after the lease, not a lost message.
 */
export async function claimDueMessages(
  db: DatabaseExecutor,
  channel: OutboxChannel,
  limit: number,
  leaseSeconds: number,
): Promise<ClaimedMessage[]> {
  return queryRows<ClaimedMessage>(
    db,
    sql`update outbox_messages set attempts = attempts + 1,
          next_attempt_at = now() + make_interval(secs => ${leaseSeconds})
        where id in (
          select id from outbox_messages
          where state = 'queued' and channel = ${channel} and next_attempt_at <= now()
          order by created_at limit ${limit}
          for update skip locked)
        returning id, channel, recipient, subject, body_text, body_html, reply_to, erase_when_sent, attempts, locale`,
  );
}

/** Moves the next attempt of the messages still queued among `ids` a lease away again. */
export async function renewMessageLeases(db: DatabaseExecutor, ids: string[], leaseSeconds: number): Promise<void> {
  await db
    .update(outboxMessages)
    .set({ nextAttemptAt: sql`now() + make_interval(secs => ${leaseSeconds})` })
    .where(and(inArray(outboxMessages.id, ids), eq(outboxMessages.state, 'queued')));
}

export async function deleteMessage(db: DatabaseExecutor, id: string): Promise<void> {
  await db.delete(outboxMessages).where(eq(outboxMessages.id, id));
}

export async function markMessageSent(
  db: DatabaseExecutor,
  id: string,
  transport: string,
  providerRef: string | null,
): Promise<void> {
  await db.execute(
    sql`update outbox_messages set state = 'sent', transport = ${transport}, sent_at = now(),
          last_error = null, provider_ref = ${providerRef}
        where id = ${id}`,
  );
}

/** Gives back the attempt the claim counted and holds the message `heldSeconds`, with its error. */
export async function holdMessage(db: DatabaseExecutor, id: string, error: string, heldSeconds: number): Promise<void> {
  await db.execute(
    sql`update outbox_messages set
          attempts = attempts - 1,
          last_error = ${error},
          next_attempt_at = now() + make_interval(secs => ${heldSeconds})
        where id = ${id}`,
  );
}

/** A failed attempt: the message's new state (queued again, or failed for good), its error and next attempt. */
export async function markAttemptFailed(
  db: DatabaseExecutor,
  id: string,
  state: 'queued' | 'failed',
  error: string,
  retrySeconds: number,
): Promise<void> {
  await db.execute(
    sql`update outbox_messages set
          state = ${state},
          last_error = ${error},
          next_attempt_at = now() + make_interval(secs => ${retrySeconds})
        where id = ${id}`,
  );
}

/**
 * Replaces what matches `pattern` (a regular expression) with `replacement` in a location request's message bodies;
 * other messages are left alone.
 */
export async function rewriteRequestMessage(
  db: DatabaseExecutor,
  messageId: string,
  pattern: string,
  replacement: string,
): Promise<void> {
  await db.execute(
    sql`update outbox_messages set
          body_text = regexp_replace(body_text, ${pattern}, ${replacement}, 'g'),
          body_html = regexp_replace(body_html, ${pattern}, ${replacement}, 'g')
        where id = ${messageId}
          and exists (select 1 from location_requests where message_id = ${messageId})`,
  );
}

/** The requests a message carries the link of. */
export async function requestsOfMessage(
  db: DatabaseExecutor,
  messageId: string,
): Promise<{ id: string; userId: string }[]> {
  return db
    .select({ id: locationRequests.id, userId: locationRequests.userId })
    .from(locationRequests)
    .where(eq(locationRequests.messageId, messageId));
}
