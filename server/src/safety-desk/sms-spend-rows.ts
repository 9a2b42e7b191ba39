import { and, eq, gte, like, lt, sql } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { users } from '../db/schema/accounts';
import { dailySendCounts, locationRequests } from '../db/schema/location-requests';

// The day's SMS counts the console reads: the counters the send limits keep, and the day's SMS requests' numbers.

/** A daily counter's value (0 when nothing was counted that day). */
export async function dailyCountOf(db: DatabaseExecutor, key: string, day: string): Promise<number> {
  const [row] = await db
    .select({ count: dailySendCounts.count })
    .from(dailySendCounts)
    .where(and(eq(dailySendCounts.key, key), eq(dailySendCounts.day, day)));
  return row?.count ?? 0;
}

/** Every account's SMS count of the day, most first, with its name while the account exists. */
export function accountSmsCounts(db: DatabaseExecutor, day: string, limit: number) {
  return db
    .select({
      key: dailySendCounts.key,
      count: dailySendCounts.count,
      displayName: users.displayName,
    })
    .from(dailySendCounts)
    .leftJoin(users, sql`${users.id}::text = substr(${dailySendCounts.key}, ${'sms:account:'.length + 1})`)
    .where(and(eq(dailySendCounts.day, day), like(dailySendCounts.key, 'sms:account:%')))
    .orderBy(sql`${dailySendCounts.count} desc`)
    .limit(limit);
}

/**
 * The day's requests to numbers still stored (a deleted request is gone): the number, the account, whether it went by
 * WhatsApp, and whether an SMS went instead.
 */
export async function numberRequestsBetween(db: DatabaseExecutor, from: Date, to: Date) {
  return db
    .select({
      target: locationRequests.target,
      userId: locationRequests.userId,
      byWhatsApp: locationRequests.sentByWhatsapp,
      fallback: locationRequests.whatsappFallback,
    })
    .from(locationRequests)
    .where(
      and(
        eq(locationRequests.channel, 'sms'),
        gte(locationRequests.createdAt, from),
        lt(locationRequests.createdAt, to),
      ),
    );
}
