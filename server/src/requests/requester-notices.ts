import { and, eq } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { NOTICE_CHANNELS, REQUESTER_NOTICES, type NoticeChannel, type RequesterNotice } from '../db/column-values';
import { noticeOptOuts, users } from '../db/schema/accounts';
import type { locationRequests } from '../db/schema/location-requests';
import { requesterNoticeEmail } from '../mail/templates';
import type { MessageOutbox } from '../plugins/message-outbox';

type RequestRow = typeof locationRequests.$inferSelect;

/** Which notices a subscriber gets, per channel: every one unless turned off. */
export type NoticeSettings = Record<NoticeChannel, Record<RequesterNotice, boolean>>;

export async function noticeSettingsOf(db: DatabaseExecutor, userId: string): Promise<NoticeSettings> {
  const off = await db.select().from(noticeOptOuts).where(eq(noticeOptOuts.userId, userId));
  return Object.fromEntries(
    NOTICE_CHANNELS.map((channel) => [
      channel,
      Object.fromEntries(
        REQUESTER_NOTICES.map((notice) => [
          notice,
          !off.some((row) => row.channel === channel && row.notice === notice),
        ]),
      ),
    ]),
  ) as NoticeSettings;
}

/** Stores the subscriber's choice, notice by notice (what is not named stays as it was). */
export async function setNoticeSettings(
  db: DatabaseExecutor,
  userId: string,
  settings: Partial<Record<NoticeChannel, Partial<Record<RequesterNotice, boolean>>>>,
): Promise<void> {
  for (const channel of NOTICE_CHANNELS) {
    for (const [notice, on] of Object.entries(settings[channel] ?? {}) as [RequesterNotice, boolean][]) {
      const row = and(
        eq(noticeOptOuts.userId, userId),
        eq(noticeOptOuts.channel, channel),
        eq(noticeOptOuts.notice, notice),
      );
      if (on) await db.delete(noticeOptOuts).where(row);
      else await db.insert(noticeOptOuts).values({ userId, channel, notice }).onConflictDoNothing();
    }
  }
}

export interface RequesterNoticeDeps {
  outbox: MessageOutbox;
  /** The configured public address, for the dashboard's link. */
  publicUrl: string;
}

/**
 * Tells the requester by email what the recipient did (unless they turned that notice off), in the same transaction
 * as the change: it is sent if and only if the change is kept, once (the key names the request and the notice; each
 * happens at most once to a request). The caller kicks the outbox once the transaction commits.
 */
export async function noticeToRequester(
  tx: DatabaseExecutor,
  deps: RequesterNoticeDeps,
  request: RequestRow,
  notice: RequesterNotice,
): Promise<void> {
  const [requester] = await tx.select().from(users).where(eq(users.id, request.userId));
  if (!requester) return;
  const settings = await noticeSettingsOf(tx, requester.id);
  if (!settings.email[notice]) return;
  await deps.outbox.queue(tx, {
    idempotencyKey: `requester-notice:${request.id}:${notice}`,
    to: requester.email,
    locale: requester.locale,
    ...requesterNoticeEmail(requester.locale, requester.displayName, notice, request, deps.publicUrl),
  });
}
