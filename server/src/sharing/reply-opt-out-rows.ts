import { and, desc, eq, inArray } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { linkTombstones } from '../db/schema/location-requests';
import { outboxMessages } from '../db/schema/outbox';

// The queries of an opt-out by reply (reply-opt-out.ts): what Kabari sent to a number, found without storing
// anything about it. Only a signed stop word from a well-formed number reaches them, so the scans by recipient and
// by tombstone key (neither indexed) stay rare.

/** The channels a recipient can answer on. */
type ReplyChannel = 'sms' | 'whatsapp';

/**
 * The language of the newest message the outbox holds for the number (E.164) on the channel; undefined when it holds
 * none.
 */
export async function newestMessageLocaleTo(
  db: DatabaseExecutor,
  channel: ReplyChannel,
  number: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ locale: outboxMessages.locale })
    .from(outboxMessages)
    .where(and(eq(outboxMessages.channel, channel), eq(outboxMessages.recipient, number)))
    .orderBy(desc(outboxMessages.createdAt))
    .limit(1);
  return row?.locale;
}

/** Whether a deleted request went to the target whose keyed hash this is (its tombstone kept the key). */
export async function hasTombstoneOf(db: DatabaseExecutor, targetHash: string): Promise<boolean> {
  const [row] = await db
    .select({ tokenHash: linkTombstones.tokenHash })
    .from(linkTombstones)
    .where(eq(linkTombstones.targetHash, targetHash))
    .limit(1);
  return row !== undefined;
}

/**
 * An SMS or WhatsApp message of the outbox by its id: its channel, the number it went to and its language; undefined
 * for another message.
 */
export async function repliedMessageById(
  db: DatabaseExecutor,
  id: string,
): Promise<{ channel: ReplyChannel; recipient: string; locale: string } | undefined> {
  const [row] = await db
    .select({ channel: outboxMessages.channel, recipient: outboxMessages.recipient, locale: outboxMessages.locale })
    .from(outboxMessages)
    .where(and(eq(outboxMessages.id, id), inArray(outboxMessages.channel, ['sms', 'whatsapp'])));
  return row && (row.channel === 'sms' || row.channel === 'whatsapp') ? { ...row, channel: row.channel } : undefined;
}
