import { eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { queryRows, type DatabaseExecutor } from '../db/open-database';
import { authThrottles } from '../db/schema/accounts';

// The throttles' counters, as rows: every statement the throttle rules (throttle.ts) make. Each counting statement is
// one atomic upsert, so a limit holds across instances and concurrent requests.

type ThrottleRow = typeof authThrottles.$inferSelect;

/**
 * Counts one attempt for `key` in a fixed window of `windowSeconds` (a window that has passed starts again at 1);
 * the count and when its window began.
 */
export async function countInWindow(
  db: DatabaseExecutor,
  key: string,
  windowSeconds: number,
): Promise<{ count: number; window_started_at: string | Date } | undefined> {
  const [row] = await queryRows<{ count: number; window_started_at: string | Date }>(
    db,
    sql`
      insert into auth_throttles (key, count, window_started_at) values (${key}, 1, now())
      on conflict (key) do update set
        count = case when auth_throttles.window_started_at <= now() - make_interval(secs => ${windowSeconds})
                     then 1 else auth_throttles.count + 1 end,
        window_started_at = case when auth_throttles.window_started_at <= now() - make_interval(secs => ${windowSeconds})
                     then now() else auth_throttles.window_started_at end
      returning count, window_started_at`,
  );
  return row;
}

/**
 * countInWindow for several keys with the same window, in one statement: one round trip and one commit for them all.
 * The keys are counted in the order given, each row locked as it is reached, so two such statements over keys given
 * in the same order never wait on each other in a circle. Each key's count and when its window began, by key.
 */
export async function countInWindows(
  db: DatabaseExecutor,
  keys: string[],
  windowSeconds: number,
): Promise<Map<string, { count: number; window_started_at: string | Date }>> {
  const rows = await queryRows<{ key: string; count: number; window_started_at: string | Date }>(
    db,
    countingInWindows(keys, windowSeconds),
  );
  return new Map(rows.map(({ key, ...row }) => [key, row]));
}

/**
 * countInWindows's statement, for a statement that counts its own use with its work (as a `with` query): returns each
 * key, its count and when its window began.
 */
export function countingInWindows(keys: readonly (string | Placeholder)[], windowSeconds: number | Placeholder): SQL {
  return sql`
      insert into auth_throttles (key, count, window_started_at)
      values ${sql.join(
        keys.map((key) => sql`(${key}, 1, now())`),
        sql`, `,
      )}
      on conflict (key) do update set
        count = case when auth_throttles.window_started_at <= now() - make_interval(secs => ${windowSeconds})
                     then 1 else auth_throttles.count + 1 end,
        window_started_at = case when auth_throttles.window_started_at <= now() - make_interval(secs => ${windowSeconds})
                     then now() else auth_throttles.window_started_at end
      returning key, count, window_started_at`;
}

export async function throttleRow(db: DatabaseExecutor, key: string): Promise<ThrottleRow | undefined> {
  const [row] = await db.select().from(authThrottles).where(eq(authThrottles.key, key));
  return row;
}

export async function deleteThrottle(db: DatabaseExecutor, key: string): Promise<void> {
  await db.delete(authThrottles).where(eq(authThrottles.key, key));
}

/**
 * Counts a failure for `key` unless it waits now, and sets its next wait: none for the first `freeFailures`, then
 * `firstDelaySeconds`, doubling, at most `maxDelaySeconds`; failures older than `forgetAfterSeconds` start again.
 * Whether it was counted (false: the key waits).
 */
export async function countFailureUnlessWaiting(
  db: DatabaseExecutor,
  key: string,
  rule: { freeFailures: number; firstDelaySeconds: number; maxDelaySeconds: number; forgetAfterSeconds: number },
): Promise<boolean> {
  const failures = sql`(case when auth_throttles.window_started_at <= now() - make_interval(secs => ${rule.forgetAfterSeconds})
                             then 1 else auth_throttles.count + 1 end)`;
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`
      insert into auth_throttles (key, count, window_started_at, blocked_until)
      values (${key}, 1, now(), ${rule.freeFailures < 1 ? sql`now() + make_interval(secs => ${rule.firstDelaySeconds})` : null})
      on conflict (key) do update set
        count = ${failures},
        window_started_at = now(),
        blocked_until = case when ${failures} > ${rule.freeFailures}
          then now() + make_interval(secs => least(
            ${rule.firstDelaySeconds}::float8 * power(2, ${failures} - ${rule.freeFailures} - 1), ${rule.maxDelaySeconds}))
          else null end
        where auth_throttles.blocked_until is null or auth_throttles.blocked_until <= now()
      returning count`,
  );
  return row !== undefined;
}

/** How many seconds `key` still waits (rounded up), or null when it does not wait. */
export async function secondsBlocked(db: DatabaseExecutor, key: string): Promise<number | null> {
  const [row] = await queryRows<{ seconds: number | string | null }>(
    db,
    sql`select ceil(extract(epoch from blocked_until - now())) as seconds
          from auth_throttles where key = ${key} and blocked_until > now()`,
  );
  if (!row || row.seconds === null) return null;
  return Number(row.seconds);
}

/** One failure fewer for `key` (never below 0), and no wait. */
export async function uncountFailure(db: DatabaseExecutor, key: string): Promise<void> {
  await db
    .update(authThrottles)
    .set({ count: sql`greatest(${authThrottles.count} - 1, 0)`, blockedUntil: null })
    .where(eq(authThrottles.key, key));
}
