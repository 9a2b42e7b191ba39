import { and, eq, lt, sql } from 'drizzle-orm';
import { queryRows, type DatabaseExecutor } from '../db/open-database';
import { dailySendCounts } from '../db/schema/location-requests';
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
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`insert into daily_send_counts (key, day, count) values (${key}, ${day}::date, 1)
        on conflict (key, day) do update set count = daily_send_counts.count + 1
        where daily_send_counts.count < ${limit}
        returning count`,
  );
  return row ? { counted: true, count: Number(row.count) } : { counted: false };
}

/** Whether today's count for `key` has reached `limit` (a check before sending; the send counts atomically). */
export async function dailyLimitReached(
  db: DatabaseExecutor,
  key: string,
  limit: number,
  day = sendDay(),
): Promise<boolean> {
  if (limit <= 0) return true;
  const [row] = await db
    .select({ count: dailySendCounts.count })
    .from(dailySendCounts)
    .where(and(eq(dailySendCounts.key, key), eq(dailySendCounts.day, day)));
  return (row?.count ?? 0) >= limit;
}

/** Deletes the counts of days before yesterday: nothing reads them. */
export async function pruneDailySendCounts(db: DatabaseExecutor, now = new Date()): Promise<number> {
  const yesterday = sendDay(new Date(now.getTime() - 24 * 60 * 60 * 1000));
  const deleted = await db
    .delete(dailySendCounts)
    .where(lt(dailySendCounts.day, yesterday))
    .returning({ key: dailySendCounts.key });
  return deleted.length;
}
