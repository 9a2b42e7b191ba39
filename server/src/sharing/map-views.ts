import { countAttempt } from '../auth/throttle';
import type { Database } from '../db/open-database';
import { HttpError } from '../lib/envelope';
import { sayCommon } from '../lib/messages';
import { throwWhenLimited } from '../lib/throttle-answer';
import {
  continueMapView,
  insertMapView,
  lastMapViewAt,
  mapViewsSince,
  ownedRequestConsent,
  serverBegunMapView,
} from './map-view-rows';

// The rules of map views: the requester's looking at what a recipient shares is recorded while the recipient shares,
// and the recipient sees when they last looked and how often. A look is recorded by the server wherever it shows the
// requester a position (the history's latest address, the map's positions, a live position event), whatever the
// browser does; the map also says it is open, every minute, so that a map left open on a still position counts.

/** An open map says so every minute; one not heard from for longer has been closed, and the next call is a new one. */
export const VIEW_CONTINUES_MS = 3 * 60_000;
/** The recipient's page counts the openings of its own day: the last 24 hours are enough for any time zone's day. */
const RECENT_MS = 24 * 60 * 60_000;
// An opening a minute all day long stays under this.
const RECENT_LIMIT = 1500;
/**
 * The server records a look at a request at most this often per instance: one statement a minute for a map
 * watched live, and the recipient's "last looked" is never more than a minute behind. Shorter than
 * VIEW_CONTINUES_MS, so steady looking stays one opening.
 */
export const LOOK_EVERY_MS = 60_000;

// An open map calls once a minute; a few maps opened and closed on top of that stay well under this.
const VIEWS_PER_USER = { limit: 60, windowSeconds: 10 * 60 };

/**
 * The map's call that it is open, counted in the user's throttle (429 when over): recorded as recordMapView says;
 * 404 for a request that is not the user's.
 */
export async function mapOpen(
  db: Database,
  userId: string,
  requestId: string,
  viewId: number | undefined,
): Promise<{ viewId: number | null }> {
  throwWhenLimited(await countAttempt(db, `map-view:user:${userId}`, VIEWS_PER_USER), sayCommon, 'tooManyRequests');
  const recorded = await recordMapView(db, userId, requestId, viewId);
  // Someone else's request looks exactly like one that does not exist.
  if (!recorded) throw new HttpError(404, sayCommon('requestNotFound'));
  return recorded;
}

/**
 * Records that the user has the map of their request open: `viewId` still open (seen within VIEW_CONTINUES_MS), else
 * an opening seen within LOOK_EVERY_MS, else a new opening. Nothing is recorded unless the recipient shares now
 * (`viewId` null). Null: not the user's.
 */
async function recordMapView(
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
    if (viewId !== undefined) {
      const continued = await continueMapView(tx, requestId, viewId, since, now);
      if (continued !== null) return { viewId: continued };
    }
    // A map just opened takes on the opening the server began within the last minute when it answered the map's
    // positions or the history: one stretch of looking is one opening, whichever call came first. An opening a map
    // already took on is not taken again: a map closed and opened again is a new opening.
    const recent = await serverBegunMapView(tx, requestId, new Date(now.getTime() - LOOK_EVERY_MS));
    if (recent !== null) return { viewId: (await continueMapView(tx, requestId, recent, since, now)) ?? recent };
    return { viewId: await insertMapView(tx, requestId, now) };
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
