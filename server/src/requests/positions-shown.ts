import type { Database } from '../db/open-database';
import { looksOf } from '../sharing/look-recorder';
import { ownedRequestPositions } from './location-request-view';
import type { PositionView } from './view-types';

/**
 * The latest `limit` positions of one of the owner's requests, oldest first, for the map; undefined when the request
 * is not theirs (someone else's looks exactly like one that does not exist). Positions shown are a look on the
 * recipient's page, recorded before they are answered, whatever the browser does afterwards.
 */
export async function positionsShownTo(
  db: Database,
  userId: string,
  requestId: string,
  limit: number,
): Promise<PositionView[] | undefined> {
  const items = await ownedRequestPositions(db, userId, requestId, limit);
  if (items && items.length > 0) await looksOf(db).record([requestId]);
  return items;
}
