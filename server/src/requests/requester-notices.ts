import { findUserById } from '../auth/users';
import type { Database, DatabaseExecutor } from '../db/open-database';
import { NOTICE_CHANNELS, REQUESTER_NOTICES, type NoticeChannel, type RequesterNotice } from '../db/column-values';
import { requesterNoticeEmail, requesterNoticePush } from '../messages/templates';
import { pushSubscriptionsOf } from '../push/push-subscriptions';
import type { MessageOutbox } from '../messages/message-outbox';
import { deleteNoticeOptOut, insertNoticeOptOut, noticeOptOutsOf } from './notice-rows';
import { liveWindowsEnded, type RequestRow } from './request-rows';

/** Which notices a subscriber gets, per channel: every one unless turned off. */
export type NoticeSettings = Record<NoticeChannel, Record<RequesterNotice, boolean>>;

export async function noticeSettingsOf(db: DatabaseExecutor, userId: string): Promise<NoticeSettings> {
  const off = await noticeOptOutsOf(db, userId);
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
      if (on) await deleteNoticeOptOut(db, userId, channel, notice);
      else await insertNoticeOptOut(db, userId, channel, notice);
    }
  }
}

export interface RequesterNoticeDeps {
  outbox: MessageOutbox;
  /** The configured public address, for the dashboard's link. */
  publicUrl: string;
}

/**
 * Tells the requester what the recipient did, by email and as a notification on each browser where they turned
 * notifications on (each unless they turned that notice off there), in the same transaction as the change: it is
 * sent if and only if the change is kept, once (the key names the request and the notice, and for a notice that can
 * happen again, `occurrence`). The caller kicks the outbox once the transaction commits. Answers whether anything
 * was queued (false: turned off everywhere, or already queued).
 */
export async function noticeToRequester(
  tx: DatabaseExecutor,
  deps: RequesterNoticeDeps,
  request: RequestRow,
  notice: RequesterNotice,
  occurrence?: string,
): Promise<boolean> {
  const requester = await findUserById(tx, request.userId);
  if (!requester) return false;
  const settings = await noticeSettingsOf(tx, requester.id);
  const key = `requester-notice:${request.id}:${notice}${occurrence ? `:${occurrence}` : ''}`;
  let queued = false;
  if (settings.email[notice]) {
    const email = await deps.outbox.queue(tx, {
      idempotencyKey: key,
      to: requester.email,
      locale: requester.locale,
      ...requesterNoticeEmail(requester.locale, requester.displayName, notice, request, deps.publicUrl),
    });
    queued = email !== null;
  }
  if (settings.push[notice]) {
    const notification = requesterNoticePush(requester.locale, notice, request, deps.publicUrl);
    for (const device of await pushSubscriptionsOf(tx, requester.id)) {
      const push = await deps.outbox.queuePush(tx, {
        idempotencyKey: `${key}:push:${device.id}`,
        subscriptionId: device.id,
        locale: requester.locale,
        notification,
      });
      queued ||= push !== null;
    }
  }
  return queued;
}

// A live window that ended while the server was down is still told once it is back, within this long.
const LIVE_ENDINGS_LOOKBACK_MS = 24 * 60 * 60 * 1000;

/**
 * Tells each requester whose recipient's live sharing reached its end time (still sharing, the window not ended
 * early) that it ended. Run every minute by the scheduler; a window is told once, however often it runs or on how
 * many instances (the key names the window's end). Answers for how many windows it queued messages.
 */
export async function noticeLiveEndings(db: Database, deps: RequesterNoticeDeps, now = new Date()): Promise<number> {
  const ended = await liveWindowsEnded(db, new Date(now.getTime() - LIVE_ENDINGS_LOOKBACK_MS), now);
  let queued = 0;
  for (const request of ended) {
    if (await noticeToRequester(db, deps, request, 'live_ended', request.liveUntil!.toISOString())) queued += 1;
  }
  if (queued > 0) deps.outbox.kick();
  return queued;
}
