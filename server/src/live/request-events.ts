import type { DatabaseExecutor } from '../db/open-database';
import type { RequestEventType } from '../db/column-values';
import type { LocationRequestView, PositionView } from '../requests/view-types';
import { insertRequestEvent, notifyChannel, takeTransactionLock } from './request-event-rows';

/** The PostgreSQL channel every instance LISTENs on; a notification carries only the event id. */
export const REQUEST_EVENTS_CHANNEL = 'kabari_request_events';

// The first half of the two-key advisory lock that orders one user's events (any number no other lock uses).
export const USER_EVENTS_LOCK = 727_002;

/** An event type the request_events column takes (db/column-values.ts). */
type EventType<T extends RequestEventType> = T;

/** What each type of live event carries (the browser reads the same shapes from the stream). */
export type RequestEventPayload =
  | { type: EventType<'request'>; payload: LocationRequestView }
  | { type: EventType<'position'>; payload: { requestId: string; position: PositionView } }
  | { type: EventType<'withdrawn'>; payload: { requestId: string } };

export type RequestEventInput = { userId: string; requestId: string | null } & RequestEventPayload;

/**
 * Records a live event for a requester and notifies every instance. Call it inside the transaction that makes
 * the change: PostgreSQL delivers the notification only if that transaction commits, so a browser never hears of
 * a change that was rolled back, and the row lets a reconnecting browser catch up by its Last-Event-ID.
 */
export async function publishRequestEvent(db: DatabaseExecutor, event: RequestEventInput): Promise<number> {
  // One user's events commit in the order of their ids: a transaction takes its id only once the previous one
  // holding this lock has ended. Otherwise a lower id could commit after a higher one the browser already has,
  // and a resume "after Last-Event-ID" would skip it. Held until commit; the transactions that publish are short.
  await takeTransactionLock(db, USER_EVENTS_LOCK, event.userId);
  const id = await insertRequestEvent(db, {
    userId: event.userId,
    requestId: event.requestId,
    type: event.type,
    payload: event.payload,
  });
  await notifyChannel(db, REQUEST_EVENTS_CHANNEL, String(id));
  return id;
}
