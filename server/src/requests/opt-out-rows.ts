import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { locationRequests, optOuts } from '../db/schema/location-requests';

// The opt-outs, as rows: every query the opt-out rules (opt-outs.ts) make, with the requests' target keys they
// re-key.

export type OptOutRow = typeof optOuts.$inferSelect;

/** The opt-outs stored under any of `targetHashes`. */
export async function optOutsUnder(db: DatabaseExecutor, targetHashes: string[]): Promise<OptOutRow[]> {
  return db.select().from(optOuts).where(inArray(optOuts.targetHash, targetHashes));
}

export async function optOutUnder(db: DatabaseExecutor, targetHash: string): Promise<OptOutRow | undefined> {
  const [row] = await db.select().from(optOuts).where(eq(optOuts.targetHash, targetHash));
  return row;
}

/** Stores an opt-out, unless one is already stored under its key. */
export async function insertOptOut(db: DatabaseExecutor, values: typeof optOuts.$inferInsert): Promise<void> {
  await db.insert(optOuts).values(values).onConflictDoNothing();
}

export async function deleteOptOut(db: DatabaseExecutor, targetHash: string): Promise<void> {
  await db.delete(optOuts).where(eq(optOuts.targetHash, targetHash));
}

/** Up to `limit` requests with a target stored before the keyed hash (none yet). */
export async function requestsWithoutTargetKey(
  db: DatabaseExecutor,
  limit: number,
): Promise<{ id: string; target: string | null }[]> {
  return db
    .select({ id: locationRequests.id, target: locationRequests.target })
    .from(locationRequests)
    .where(and(isNotNull(locationRequests.target), isNull(locationRequests.targetHash)))
    .limit(limit);
}

export async function setRequestTargetKey(db: DatabaseExecutor, requestId: string, targetHash: string): Promise<void> {
  await db.update(locationRequests).set({ targetHash }).where(eq(locationRequests.id, requestId));
}
