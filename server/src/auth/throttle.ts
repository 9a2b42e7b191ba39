import { eq, sql } from 'drizzle-orm';
import { queryRows, type DatabaseExecutor } from '../db/open-database';
import { authThrottles } from '../db/schema';

export interface ThrottleRule {
  limit: number;
  windowSeconds: number;
}

export type ThrottleResult = { limited: false } | { limited: true; retryAfterSeconds: number };

/** The retention job deletes a counter a day after its window began (SPENT_COUNTER_HOURS): no window is longer. */
export const LONGEST_WINDOW_SECONDS = 24 * 60 * 60;

function retryAfter(windowStartedAt: Date, windowSeconds: number): number {
  return Math.max(1, Math.ceil((windowStartedAt.getTime() + windowSeconds * 1000 - Date.now()) / 1000));
}

/**
 * Counts one attempt for `key` in a fixed window, in one atomic statement in the database, so the limit holds
 * across instances and concurrent requests. Limited once the count goes over the rule's limit.
 */
export async function countAttempt(db: DatabaseExecutor, key: string, rule: ThrottleRule): Promise<ThrottleResult> {
  if (rule.windowSeconds > LONGEST_WINDOW_SECONDS) {
    throw new Error(`A throttle window longer than a day (${rule.windowSeconds} s) would outlive its counter`);
  }
  const [row] = await queryRows<{ count: number; window_started_at: string | Date }>(
    db,
    sql`
      insert into auth_throttles (key, count, window_started_at) values (${key}, 1, now())
      on conflict (key) do update set
        count = case when auth_throttles.window_started_at <= now() - make_interval(secs => ${rule.windowSeconds})
                     then 1 else auth_throttles.count + 1 end,
        window_started_at = case when auth_throttles.window_started_at <= now() - make_interval(secs => ${rule.windowSeconds})
                     then now() else auth_throttles.window_started_at end
      returning count, window_started_at`,
  );
  if (!row || Number(row.count) <= rule.limit) return { limited: false };
  return { limited: true, retryAfterSeconds: retryAfter(new Date(row.window_started_at), rule.windowSeconds) };
}

/** Whether `key` is already at its limit, without counting anything. */
export async function isLimited(db: DatabaseExecutor, key: string, rule: ThrottleRule): Promise<ThrottleResult> {
  const [row] = await db.select().from(authThrottles).where(eq(authThrottles.key, key));
  if (!row) return { limited: false };
  const windowEnds = row.windowStartedAt.getTime() + rule.windowSeconds * 1000;
  if (windowEnds <= Date.now() || row.count < rule.limit) return { limited: false };
  return { limited: true, retryAfterSeconds: retryAfter(row.windowStartedAt, rule.windowSeconds) };
}

export async function clearAttempts(db: DatabaseExecutor, key: string): Promise<void> {
  await db.delete(authThrottles).where(eq(authThrottles.key, key));
}
