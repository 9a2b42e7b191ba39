import type { Database } from '../../db/open-database';
import {
  continueMapView,
  currentMapView,
  insertMapView,
  lastMapViewAt,
  mapViewsSince,
  ownedRequestConsent,
  recordLooks,
} from './data';

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
// Requests remembered as just looked at before the expired ones are swept out.
const REMEMBERED_LOOKS = 10_000;

/**
 * Records that the user has the map of their request open: `viewId` still open (seen within VIEW_CONTINUES_MS), else
 * an opening seen within LOOK_EVERY_MS, else a new opening. Nothing is recorded unless the recipient shares now
 * (`viewId` null). Null: not the user's.
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
    if (viewId !== undefined) {
      const continued = await continueMapView(tx, requestId, viewId, since, now);
      if (continued !== null) return { viewId: continued };
    }
    // A map just opened takes on the opening seen within the last minute, such as the one the server began a moment
    // ago when it answered the map's positions or the history: one stretch of looking is one opening, whichever
    // call came first.
    const recent = await currentMapView(tx, requestId, new Date(now.getTime() - LOOK_EVERY_MS));
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

/**
 * Records the server's looks: each request the requester was shown a position of counts as looked at now, unless
 * this instance already recorded it within LOOK_EVERY_MS. Only requests shared now are recorded (a look before
 * consent or after Stop sharing shows the recipient nothing), and only those are remembered, so a request shared a
 * moment later is recorded at the next look.
 */
export class LookRecorder {
  private readonly recorded = new Map<string, number>();

  constructor(private readonly db: Database) {}

  async record(requestIds: Iterable<string>, now = new Date()): Promise<void> {
    const at = now.getTime();
    const due = [...new Set(requestIds)].filter((id) => at - (this.recorded.get(id) ?? -Infinity) >= LOOK_EVERY_MS);
    if (due.length === 0) return;
    // Marked before the statement, so that looks arriving meanwhile do not record the same again.
    for (const id of due) this.recorded.set(id, at);
    let shared: Set<string>;
    try {
      shared = new Set(await recordLooks(this.db, due, new Date(at - VIEW_CONTINUES_MS), now));
    } catch (error) {
      for (const id of due) this.recorded.delete(id);
      throw error;
    }
    for (const id of due) if (!shared.has(id)) this.recorded.delete(id);
    if (this.recorded.size > REMEMBERED_LOOKS) {
      for (const [id, when] of this.recorded) if (at - when >= LOOK_EVERY_MS) this.recorded.delete(id);
    }
  }
}

const recorders = new WeakMap<Database, LookRecorder>();

/** The one recorder of a database in this process, so every route and the live streams coalesce together. */
export function looksOf(db: Database): LookRecorder {
  let recorder = recorders.get(db);
  if (!recorder) {
    recorder = new LookRecorder(db);
    recorders.set(db, recorder);
  }
  return recorder;
}
