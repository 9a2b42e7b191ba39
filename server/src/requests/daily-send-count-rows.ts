import { and, eq, lt, sql } from 'drizzle-orm';
import { queryRows, type DatabaseExecutor } from '../db/open-database';
import { dailySendCounts } from '../db/schema/location-requests';

// The day's send counts, as rows: every statement the daily count rules (daily-send-counts.ts) make.

/**
 * Adds one to `key`'s count of `day` while it is below `limit` (one upsert: concurrent ones are serialised on the
 * row, each re-checking the committed count). The new count, or undefined when it was at the limit.
 */
export async function countOneBelow(
  db: DatabaseExecutor,
  key: string,
  day: string,
  limit: number,
): Promise<number | undefined> {
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`insert into daily_send_counts (key, day, count) values (${key}, ${day}::date, 1)
        on conflict (key, day) do update set count = daily_send_counts.count + 1
        where daily_send_counts.count < ${limit}
        returning count`,
  );
  return row ? Number(row.count) : undefined;
}

/** `key`'s count of `day` (undefined: nothing counted). */
export async function dayCount(db: DatabaseExecutor, key: string, day: string): Promise<number | undefined> {
  const [row] = await db
    .select({ count: dailySendCounts.count })
    .from(dailySendCounts)
    .where(and(eq(dailySendCounts.key, key), eq(dailySendCounts.day, day)));
  return row?.count;
}

/** Deletes the counts of days before `day`; how many. */
export async function deleteCountsBefore(db: DatabaseExecutor, day: string): Promise<number> {
  const deleted = await db
    .delete(dailySendCounts)
    .where(lt(dailySendCounts.day, day))
    .returning({ key: dailySendCounts.key });
  return deleted.length;
}
