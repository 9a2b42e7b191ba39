import type { DatabaseExecutor } from '../db/open-database';
import { countOneBelow, dayCount, deleteCountsBefore } from './daily-send-count-rows';
import type { MessageChannel } from './templates';

/** An account's own count of a channel, and everyone's SMS together (the operator's budget). */
export const accountDayKey = (channel: MessageChannel, userId: string) => `${channel}:account:${userId}`;
export const SMS_BUDGET_KEY = 'sms:all';

/** The day the counts are kept by: the UTC date, the same on every instance. */
export function sendDay(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** When the next day's counts start: the coming midnight, UTC. */
export function nextSendDay(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

export type DailyCount = { counted: true; count: number } | { counted: false };

/**
 * Counts one send for `key` today if that stays within `limit`: one upsert that adds one only while the count is
 * below the limit. PostgreSQL serialises concurrent upserts on the row, each re-checking the count against the
 * committed row, so concurrent sends never pass the limit together. Call it inside the transaction that writes the
 * message: if that transaction rolls back, the send is not counted.
 */
export async function countDailySend(
  db: DatabaseExecutor,
  key: string,
  limit: number,
  day = sendDay(),
): Promise<DailyCount> {
  if (limit <= 0) return { counted: false };
  const count = await countOneBelow(db, key, day, limit);
  return count === undefined ? { counted: false } : { counted: true, count };
}

/** Whether today's count for `key` has reached `limit` (a check before sending; the send counts atomically). */
export async function dailyLimitReached(
  db: DatabaseExecutor,
  key: string,
  limit: number,
  day = sendDay(),
): Promise<boolean> {
  if (limit <= 0) return true;
  return ((await dayCount(db, key, day)) ?? 0) >= limit;
}

/** Deletes the counts of days before yesterday: nothing reads them. */
export async function pruneDailySendCounts(db: DatabaseExecutor, now = new Date()): Promise<number> {
  const yesterday = sendDay(new Date(now.getTime() - 24 * 60 * 60 * 1000));
  return deleteCountsBefore(db, yesterday);
}
