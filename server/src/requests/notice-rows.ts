import { and, eq } from 'drizzle-orm';
import type { NoticeChannel, RequesterNotice } from '../db/column-values';
import type { DatabaseExecutor } from '../db/open-database';
import { noticeOptOuts } from '../db/schema/accounts';

// The notices a subscriber turned off, as rows: every query of the notice settings (requester-notices.ts).

type NoticeOptOutRow = typeof noticeOptOuts.$inferSelect;

export async function noticeOptOutsOf(db: DatabaseExecutor, userId: string): Promise<NoticeOptOutRow[]> {
  return db.select().from(noticeOptOuts).where(eq(noticeOptOuts.userId, userId));
}

/** Turns a notice on again on a channel (deletes its opt-out). */
export async function deleteNoticeOptOut(
  db: DatabaseExecutor,
  userId: string,
  channel: NoticeChannel,
  notice: RequesterNotice,
): Promise<void> {
  await db
    .delete(noticeOptOuts)
    .where(and(eq(noticeOptOuts.userId, userId), eq(noticeOptOuts.channel, channel), eq(noticeOptOuts.notice, notice)));
}

/** Turns a notice off on a channel (unless it already is). */
export async function insertNoticeOptOut(
  db: DatabaseExecutor,
  userId: string,
  channel: NoticeChannel,
  notice: RequesterNotice,
): Promise<void> {
  await db.insert(noticeOptOuts).values({ userId, channel, notice }).onConflictDoNothing();
}
