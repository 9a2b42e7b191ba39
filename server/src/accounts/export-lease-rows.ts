import { sql } from 'drizzle-orm';
import { queryRows, type DatabaseExecutor } from '../db/open-database';

/**
 * One export at a time per account, across instances: a lease row among the throttle counters (auth_throttles, no
 * table of its own), taken in one atomic statement and given back when the export ends. A lease outlives the
 * export's deadline by a minute, so one left by an instance that died frees itself. PGlite cannot hold a
 * connection apart for an advisory lock, and an in-process guard alone would let each instance run one.
 */
export async function claimExportLease(
  db: DatabaseExecutor,
  userId: string,
  deadlineMs: number,
): Promise<(() => Promise<void>) | null> {
  const key = `account-export:${userId}`;
  const leaseSeconds = Math.ceil(deadlineMs / 1000) + 60;
  const [claimed] = await queryRows<{ key: string }>(
    db,
    sql`
      insert into auth_throttles (key, count, window_started_at) values (${key}, 1, now())
      on conflict (key) do update set count = 1, window_started_at = now()
        where auth_throttles.window_started_at <= now() - make_interval(secs => ${leaseSeconds})
      returning key`,
  );
  if (!claimed) return null;
  let released: Promise<void> | undefined;
  return () => {
    released ??= db.execute(sql`delete from auth_throttles where key = ${key}`).then(() => undefined);
    return released;
  };
}
