import { and, desc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { ReceiptState } from '../db/column-values';
import { queryRows, type DatabaseExecutor, type DatabaseTransaction } from '../db/open-database';
import { locationRequests, positions } from '../db/schema/location-requests';
import { outboxMessages } from '../db/schema/outbox';

// The requester's side of a location request, as rows: every query creating, cancelling, listing and telling about
// requests makes (create-request.ts, cancel-request.ts, location-request-view.ts, requester-notices.ts,
// request-tokens.ts).

export type RequestRow = typeof locationRequests.$inferSelect;
export type PositionRow = typeof positions.$inferSelect;
type NewRequest = typeof locationRequests.$inferInsert;

/**
 * A request with its message's delivery state, transport and latest delivery receipt (all null for a link, or
 * before its message exists).
 */
export interface RequestWithDelivery {
  request: RequestRow;
  delivery: string | null;
  transport: string | null;
  receipt: ReceiptState | null;
  receiptErrorCode: string | null;
}

export async function insertRequest(db: DatabaseExecutor, values: NewRequest): Promise<void> {
  await db.insert(locationRequests).values(values);
}

/**
 * Cancels one of the owner's requests if its consent is one of `consents`: its link stops and any live window ends.
 * Whether it changed.
 */
export async function markOwnedRequestCancelled(
  db: DatabaseExecutor,
  userId: string,
  requestId: string,
  consents: RequestRow['consent'][],
  cancelledAt: Date,
): Promise<boolean> {
  const changed = await db
    .update(locationRequests)
    .set({ consent: 'cancelled', cancelledAt, liveUntil: null })
    .where(
      and(
        eq(locationRequests.id, requestId),
        eq(locationRequests.userId, userId),
        inArray(locationRequests.consent, consents),
      ),
    )
    .returning({ id: locationRequests.id });
  return changed.length > 0;
}

/** Deletes one of the owner's requests (its positions and events go with it); whether there was one. */
export async function deleteOwnedRequestRow(db: DatabaseExecutor, userId: string, requestId: string): Promise<boolean> {
  const deleted = await db
    .delete(locationRequests)
    .where(and(eq(locationRequests.id, requestId), eq(locationRequests.userId, userId)))
    .returning({ id: locationRequests.id });
  return deleted.length > 0;
}

function selectWithDelivery(db: DatabaseExecutor) {
  return db
    .select({
      request: locationRequests,
      delivery: outboxMessages.state,
      transport: outboxMessages.transport,
      receipt: outboxMessages.receipt,
      receiptErrorCode: outboxMessages.receiptErrorCode,
    })
    .from(locationRequests)
    .leftJoin(outboxMessages, eq(outboxMessages.id, locationRequests.messageId));
}

/** One request of one owner, with its delivery (none when it does not exist or belongs to someone else). */
export async function ownedRequestWithDelivery(
  db: DatabaseExecutor,
  userId: string,
  requestId: string,
): Promise<RequestWithDelivery[]> {
  return selectWithDelivery(db).where(and(eq(locationRequests.id, requestId), eq(locationRequests.userId, userId)));
}

/** A page of the owner's requests with their delivery, newest first. */
export async function ownedRequestsPage(
  db: DatabaseExecutor,
  userId: string,
  limit: number,
  offset: number,
): Promise<RequestWithDelivery[]> {
  return selectWithDelivery(db)
    .where(eq(locationRequests.userId, userId))
    .orderBy(desc(locationRequests.createdAt), desc(locationRequests.id))
    .limit(limit)
    .offset(offset);
}

export async function countOwnedRequests(db: DatabaseExecutor, userId: string): Promise<number> {
  return db.$count(locationRequests, eq(locationRequests.userId, userId));
}

/** The latest position of each request given (at most one each). */
export async function lastPositionRows(db: DatabaseExecutor, requestIds: string[]): Promise<PositionRow[]> {
  return db
    .selectDistinctOn([positions.requestId])
    .from(positions)
    .where(inArray(positions.requestId, requestIds))
    .orderBy(positions.requestId, desc(positions.id));
}

/** The id of one request of one owner; undefined when it does not exist or belongs to someone else. */
export async function ownedRequestId(
  db: DatabaseExecutor,
  userId: string,
  requestId: string,
): Promise<string | undefined> {
  const [owned] = await db
    .select({ id: locationRequests.id })
    .from(locationRequests)
    .where(and(eq(locationRequests.id, requestId), eq(locationRequests.userId, userId)));
  return owned?.id;
}

/** A request's latest `limit` positions, newest first. */
export async function latestPositionRows(
  db: DatabaseExecutor,
  requestId: string,
  limit: number,
): Promise<PositionRow[]> {
  return db
    .select()
    .from(positions)
    .where(eq(positions.requestId, requestId))
    .orderBy(desc(positions.recordedAt), desc(positions.id))
    .limit(limit);
}

/** The requests still sharing whose live window ended after `after` and by `by`. */
export async function liveWindowsEnded(db: DatabaseExecutor, after: Date, by: Date): Promise<RequestRow[]> {
  return db
    .select()
    .from(locationRequests)
    .where(
      and(
        eq(locationRequests.consent, 'sharing'),
        lte(locationRequests.liveUntil, by),
        gt(locationRequests.liveUntil, after),
      ),
    );
}

/** Up to `limit` requests that still hold a plain token, locked and skipped by anyone else (`for update skip locked`). */
export async function lockLegacyTokens(
  tx: DatabaseTransaction,
  limit: number,
): Promise<{ id: string; channel: string; legacy_token: string }[]> {
  return queryRows<{ id: string; channel: string; legacy_token: string }>(
    tx,
    sql`select id, channel, legacy_token from location_requests where legacy_token is not null
        limit ${limit} for update skip locked`,
  );
}

/** Clears a request's plain token, keeping its sealed copy (`sealed` when it had none yet). */
export async function replaceLegacyToken(tx: DatabaseTransaction, id: string, sealed: string | null): Promise<void> {
  await queryRows(
    tx,
    sql`update location_requests set token_cipher = coalesce(token_cipher, ${sealed}), legacy_token = null
        where id = ${id}`,
  );
}
