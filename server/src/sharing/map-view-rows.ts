import { and, desc, eq, gt, sql } from 'drizzle-orm';
import { queryPreparedRows, type DatabaseExecutor } from '../db/open-database';
import { locationRequests, mapViews } from '../db/schema/location-requests';

// The requester looking at a request's map, as rows: every query the map-view rules (map-views.ts) make.

/** The request with this id if it is the user's: its consent state, or undefined (someone else's, or none). */
export async function ownedRequestConsent(
  db: DatabaseExecutor,
  userId: string,
  requestId: string,
): Promise<{ consent: string } | undefined> {
  const [request] = await db
    .select({ consent: locationRequests.consent })
    .from(locationRequests)
    .where(and(eq(locationRequests.id, requestId), eq(locationRequests.userId, userId)));
  return request;
}

/**
 * The latest opening of a request's map that the server began after `since` and no map has taken on yet (it was
 * never seen again: seen when it was opened): its id, or null.
 */
export async function serverBegunMapView(db: DatabaseExecutor, requestId: string, since: Date): Promise<number | null> {
  const [view] = await db
    .select({ id: mapViews.id })
    .from(mapViews)
    .where(
      and(
        eq(mapViews.requestId, requestId),
        gt(mapViews.lastSeenAt, since),
        eq(mapViews.lastSeenAt, mapViews.openedAt),
      ),
    )
    .orderBy(desc(mapViews.lastSeenAt))
    .limit(1);
  return view?.id ?? null;
}

/** Moves an opening of the map on to now, if it is this request's and was seen after `since`; its id, or null. */
export async function continueMapView(
  db: DatabaseExecutor,
  requestId: string,
  viewId: number,
  since: Date,
  now: Date,
): Promise<number | null> {
  const [view] = await db
    .update(mapViews)
    .set({ lastSeenAt: now })
    .where(and(eq(mapViews.id, viewId), eq(mapViews.requestId, requestId), gt(mapViews.lastSeenAt, since)))
    .returning({ id: mapViews.id });
  return view?.id ?? null;
}

export async function insertMapView(db: DatabaseExecutor, requestId: string, now: Date): Promise<number> {
  const [view] = await db
    .insert(mapViews)
    .values({ requestId, openedAt: now, lastSeenAt: now })
    .returning({ id: mapViews.id });
  if (!view) throw new Error('the map view was not stored');
  return view.id;
}

/**
 * A look at each of these requests that the recipient shares now, in one statement: the opening last seen after
 * `since` goes on to `now`, or a new one begins. The ids of the requests recorded (those shared now). The ids go as
 * one array, so the statement's text is the same for any number of them: written once, and prepared once per
 * connection (a live stream's position is a look, on the way to the browser).
 */
export async function recordLooks(
  db: DatabaseExecutor,
  requestIds: readonly string[],
  since: Date,
  now: Date,
): Promise<string[]> {
  if (requestIds.length === 0) return [];
  const rows = await queryPreparedRows<{ id: string }>(
    db,
    'record-looks',
    () => {
      const value = (name: string) => sql.placeholder(name);
      return sql`
      with shared as (
        select id from location_requests where id = any(${value('ids')}::uuid[]) and consent = 'sharing'
      ), current_view as (
        select distinct on (request_id) id, request_id from map_views
        where request_id in (select id from shared) and last_seen_at > ${value('since')}::timestamptz
        order by request_id, last_seen_at desc
      ), continued as (
        update map_views set last_seen_at = ${value('now')}::timestamptz
        from current_view
        where map_views.id = current_view.id and map_views.last_seen_at < ${value('now')}::timestamptz
        returning map_views.id
      ), opened as (
        insert into map_views (request_id, opened_at, last_seen_at)
        select id, ${value('now')}::timestamptz, ${value('now')}::timestamptz from shared
        where id not in (select request_id from current_view)
        returning id
      )
      select id::text as id from shared`;
    },
    { ids: [...requestIds], since: since.toISOString(), now: now.toISOString() },
  );
  return rows.map((row) => row.id);
}

/** The openings of a request's map since `since`, newest first, at most `limit`. */
export function mapViewsSince(db: DatabaseExecutor, requestId: string, since: Date, limit: number) {
  return db
    .select({ openedAt: mapViews.openedAt, lastSeenAt: mapViews.lastSeenAt })
    .from(mapViews)
    .where(and(eq(mapViews.requestId, requestId), gt(mapViews.lastSeenAt, since)))
    .orderBy(desc(mapViews.openedAt))
    .limit(limit);
}

/** The latest moment the requester had the request's map open, if ever. */
export async function lastMapViewAt(db: DatabaseExecutor, requestId: string): Promise<Date | null> {
  const [view] = await db
    .select({ lastSeenAt: mapViews.lastSeenAt })
    .from(mapViews)
    .where(eq(mapViews.requestId, requestId))
    .orderBy(desc(mapViews.lastSeenAt))
    .limit(1);
  return view?.lastSeenAt ?? null;
}

export async function eraseMapViews(db: DatabaseExecutor, requestId: string): Promise<void> {
  await db.delete(mapViews).where(eq(mapViews.requestId, requestId));
}
