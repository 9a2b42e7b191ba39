import { and, desc, eq, gt } from 'drizzle-orm';
import type { DatabaseExecutor } from '../../db/open-database';
import { locationRequests, mapViews } from '../../db/schema/location-requests';

// The requester looking at a request's map, as rows: every query the map-view rules (service.ts) make.

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
