import type { Database } from '../../db/open-database';
import { continueMapView, insertMapView, lastMapViewAt, mapViewsSince, ownedRequestConsent } from './data';

// The rules of map views: the requester's opening of a request's map is recorded while the recipient shares, and the
// recipient sees when they last looked and how often.

/** An open map says so every minute; one not heard from for longer has been closed, and the next call is a new one. */
export const VIEW_CONTINUES_MS = 3 * 60_000;
/** The recipient's page counts the openings of its own day: the last 24 hours are enough for any time zone's day. */
const RECENT_MS = 24 * 60 * 60_000;
// An opening a minute all day long stays under this.
const RECENT_LIMIT = 1500;

/**
 * Records that the user has the map of their request open: a new opening, or `viewId` still open (seen within
 * VIEW_CONTINUES_MS). Nothing is recorded unless the recipient shares now (`viewId` null). Null: not the user's.
 */
export async function recordMapView(
  db: Database,
  userId: string,
  requestId: string,
  viewId: number | undefined,
  now = new Date(),
): Promise<{ viewId: number | null } | null> {
  return db.transaction(async (tx) => {
    const request = await ownedRequestConsent(tx, userId, requestId);
    if (!request) return null;
    if (request.consent !== 'sharing') return { viewId: null };
    const since = new Date(now.getTime() - VIEW_CONTINUES_MS);
    const continued = viewId === undefined ? null : await continueMapView(tx, requestId, viewId, since, now);
    return { viewId: continued ?? (await insertMapView(tx, requestId, now)) };
  });
}

/** What the recipient's page says of the requester's looking: the last time, and the openings of the last day. */
export interface MapViewsSeen {
  lastSeenAt: string | null;
  openedAt: string[];
}

export async function mapViewsSeen(db: Database, requestId: string, now = new Date()): Promise<MapViewsSeen> {
  const lastSeenAt = await lastMapViewAt(db, requestId);
  const recent = await mapViewsSince(db, requestId, new Date(now.getTime() - RECENT_MS), RECENT_LIMIT);
  return {
    lastSeenAt: lastSeenAt?.toISOString() ?? null,
    openedAt: recent.map((view) => view.openedAt.toISOString()),
  };
}
