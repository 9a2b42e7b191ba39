import { sql } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { queryRows } from '../db/open-database';
import { requestEvents } from '../db/schema';

/** The PostgreSQL channel every instance LISTENs on; a notification carries only the event id. */
export const REQUEST_EVENTS_CHANNEL = 'kabari_request_events';

export type RequestEventType = 'request' | 'position' | 'withdrawn';

export interface RequestEventInput {
  userId: string;
  requestId: string | null;
  type: RequestEventType;
  payload: Record<string, unknown>;
}

/**
 * Records a live event for a requester and notifies every instance. Call it inside the transaction that makes
 * the change: PostgreSQL delivers the notification only if that transaction commits, so a browser never hears of
 * a change that was rolled back, and the row lets a reconnecting browser catch up by its Last-Event-ID.
 */
export async function publishRequestEvent(db: DatabaseExecutor, event: RequestEventInput): Promise<number> {
  const [row] = await db
    .insert(requestEvents)
    .values({ userId: event.userId, requestId: event.requestId, type: event.type, payload: event.payload })
    .returning({ id: requestEvents.id });
  if (!row) throw new Error('the request event was not recorded');
  await queryRows(db, sql`select pg_notify(${REQUEST_EVENTS_CHANNEL}, ${String(row.id)})`);
  return row.id;
}
