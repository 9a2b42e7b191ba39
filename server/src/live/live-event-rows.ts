import { and, asc, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { sessions } from '../db/schema/accounts';
import { requestEvents } from '../db/schema/location-requests';

// The live event hub's reads, as rows: every query of live-event-hub.ts.

/** A stored event as the hub sends it. */
export interface EventRow {
  id: number;
  userId: string;
  requestId: string | null;
  type: string;
  payload: string;
  /** Whether the event shows the requester a recipient's position: a new one, or a request's latest. */
  showsPosition: boolean;
  /**
   * What a recipient's page shows of its request, as this event leaves it (the consent's state and the live
   * window); null for a position, which changes neither (nor does the requester's status a position moves on).
   * Told by the database too.
   */
  recipientView: string | null;
}

const eventColumns = {
  id: requestEvents.id,
  userId: requestEvents.userId,
  type: requestEvents.type,
  requestId: requestEvents.requestId,
  // Sent as is: no parse and re-serialisation of every payload.
  payload: sql<string>`${requestEvents.payload}::text`,
  // Told by the database, so that no payload is parsed here.
  showsPosition: sql<boolean>`(${requestEvents.type} = 'position'
    or jsonb_typeof(${requestEvents.payload} -> 'lastPosition') = 'object')`,
  recipientView: sql<string | null>`case when ${requestEvents.type} = 'position' then null
    else concat_ws('|', ${requestEvents.type}, ${requestEvents.payload} ->> 'consent',
      ${requestEvents.payload} ->> 'liveUntil') end`,
};

/** The id of a user's newest event; undefined when there is none. */
export async function newestEventIdOf(db: DatabaseExecutor, userId: string): Promise<number | undefined> {
  const [newest] = await db
    .select({ id: requestEvents.id })
    .from(requestEvents)
    .where(eq(requestEvents.userId, userId))
    .orderBy(desc(requestEvents.id))
    .limit(1);
  return newest?.id;
}

/**
 * A page of events by id, after `cursor`: those after `afterId`, and those of the last `overlapSeconds` whatever
 * their id.
 */
export async function eventsAfterOrRecent(
  db: DatabaseExecutor,
  cursor: number,
  afterId: number,
  overlapSeconds: number,
  limit: number,
): Promise<EventRow[]> {
  return db
    .select(eventColumns)
    .from(requestEvents)
    .where(
      and(
        gt(requestEvents.id, cursor),
        or(
          gt(requestEvents.id, afterId),
          sql`${requestEvents.createdAt} > now() - make_interval(secs => ${overlapSeconds})`,
        ),
      ),
    )
    .orderBy(asc(requestEvents.id))
    .limit(limit);
}

/** The events of these ids, by id. */
export async function eventsByIds(db: DatabaseExecutor, ids: number[]): Promise<EventRow[]> {
  return db
    .select(eventColumns)
    .from(requestEvents)
    .where(inArray(requestEvents.id, ids))
    .orderBy(asc(requestEvents.id));
}

/** Up to `limit` of a user's events after `afterId`, by id. */
export async function userEventsAfter(
  db: DatabaseExecutor,
  userId: string,
  afterId: number,
  limit: number,
): Promise<EventRow[]> {
  return db
    .select(eventColumns)
    .from(requestEvents)
    .where(and(eq(requestEvents.userId, userId), gt(requestEvents.id, afterId)))
    .orderBy(asc(requestEvents.id))
    .limit(limit);
}

/** Which of these sessions are live: not revoked, not expired. */
export async function liveSessionIds(db: DatabaseExecutor, sessionIds: string[]): Promise<string[]> {
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(inArray(sessions.id, sessionIds), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)));
  return rows.map((row) => row.id);
}
