import { and, count, desc, eq, inArray, max } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { users } from '../db/schema/accounts';
import { locationRequests, mapViews, positions } from '../db/schema/location-requests';
import type { LocationRequestRow } from './link-rows';

// The consent overview's queries (consent-overview.ts): the requests sent to one address, found by its keyed hash,
// and what the overview says of each.

// Far more than the send limits let anyone send to one address in the 30 days the overview looks back.
const MOST_REQUESTS = 500;

/** The requests sent to the address whose keyed hash this is, newest first, with their requester's display name. */
export async function requestsToAddress(
  db: DatabaseExecutor,
  targetHash: string,
): Promise<(LocationRequestRow & { requesterName: string | null })[]> {
  const rows = await db
    .select({ request: locationRequests, requesterName: users.displayName })
    .from(locationRequests)
    .leftJoin(users, eq(users.id, locationRequests.userId))
    .where(eq(locationRequests.targetHash, targetHash))
    .orderBy(desc(locationRequests.createdAt))
    .limit(MOST_REQUESTS);
  return rows.map((row) => ({ ...row.request, requesterName: row.requesterName }));
}

/** One request to the address, locked until the transaction ends; undefined when it went to another address. */
export async function requestToAddress(
  db: DatabaseExecutor,
  targetHash: string,
  requestId: string,
): Promise<LocationRequestRow | undefined> {
  const [row] = await db
    .select()
    .from(locationRequests)
    .where(and(eq(locationRequests.id, requestId), eq(locationRequests.targetHash, targetHash)))
    .for('update');
  return row;
}

/** How many positions each request holds, and when the last was taken. */
export async function positionSummaries(
  db: DatabaseExecutor,
  requestIds: string[],
): Promise<Map<string, { count: number; lastAt: Date | null }>> {
  if (requestIds.length === 0) return new Map();
  const rows = await db
    .select({ requestId: positions.requestId, n: count(), lastAt: max(positions.recordedAt) })
    .from(positions)
    .where(inArray(positions.requestId, requestIds))
    .groupBy(positions.requestId);
  return new Map(rows.map((row) => [row.requestId, { count: Number(row.n), lastAt: row.lastAt }]));
}

/** How many times the requester opened each request's map, and when they last had it open. */
export async function lookSummaries(
  db: DatabaseExecutor,
  requestIds: string[],
): Promise<Map<string, { count: number; lastAt: Date | null }>> {
  if (requestIds.length === 0) return new Map();
  const rows = await db
    .select({ requestId: mapViews.requestId, n: count(), lastAt: max(mapViews.lastSeenAt) })
    .from(mapViews)
    .where(inArray(mapViews.requestId, requestIds))
    .groupBy(mapViews.requestId);
  return new Map(rows.map((row) => [row.requestId, { count: Number(row.n), lastAt: row.lastAt }]));
}
