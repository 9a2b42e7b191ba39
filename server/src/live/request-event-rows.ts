import { sql } from 'drizzle-orm';
import type { RequestEventType } from '../db/column-values';
import { queryRows, type DatabaseExecutor } from '../db/open-database';
import { requestEvents } from '../db/schema/location-requests';

// The request events, as rows: the statements publishing one makes (request-events.ts).

/** Waits, until the transaction ends, for any other transaction holding the advisory lock (`first`, `name`). */
export async function takeTransactionLock(db: DatabaseExecutor, first: number, name: string): Promise<void> {
  await queryRows(db, sql`select pg_advisory_xact_lock(${first}, hashtext(${name}))`);
}

/** Stores an event; its id. */
export async function insertRequestEvent(
  db: DatabaseExecutor,
  values: { userId: string; requestId: string | null; type: RequestEventType; payload: unknown },
): Promise<number> {
  const [row] = await db.insert(requestEvents).values(values).returning({ id: requestEvents.id });
  if (!row) throw new Error('the request event was not recorded');
  return row.id;
}

/** Notifies every connection LISTENing on `channel` (once the transaction commits). */
export async function notifyChannel(db: DatabaseExecutor, channel: string, payload: string): Promise<void> {
  await queryRows(db, sql`select pg_notify(${channel}, ${payload})`);
}
