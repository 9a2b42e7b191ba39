import { createHash } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import type { DatabaseExecutor } from '../../db/open-database';
import { outboxMessages, positions, type locationRequests } from '../../db/schema';
import { publishRequestEvent } from '../../live/request-events';

export type RequestRow = typeof locationRequests.$inferSelect;
export type PositionRow = typeof positions.$inferSelect;

/** Position as docs/api-v1.md defines it. */
export function positionView(row: PositionRow) {
  return {
    id: row.id,
    source: row.source as 'ip' | 'gps',
    latitude: row.latitude,
    longitude: row.longitude,
    accuracyMeters: row.accuracyMeters,
    address: row.address,
    recordedAt: row.recordedAt.toISOString(),
  };
}

/** The consent page's address for a request, in its language. */
export function consentUrl(publicUrl: string, request: Pick<RequestRow, 'token' | 'locale'>): string {
  const prefix = request.locale === 'id' ? '/id' : '';
  return `${publicUrl}${prefix}/enter-link?token=${encodeURIComponent(request.token)}`;
}

/** LocationRequest as docs/api-v1.md defines it: what the requester's live events carry. */
export async function locationRequestView(db: DatabaseExecutor, request: RequestRow, publicUrl: string) {
  const [last] = await db
    .select()
    .from(positions)
    .where(eq(positions.requestId, request.id))
    .orderBy(desc(positions.id))
    .limit(1);
  let delivery: string | null = null;
  if (request.messageId) {
    const [message] = await db
      .select({ state: outboxMessages.state })
      .from(outboxMessages)
      .where(eq(outboxMessages.id, request.messageId));
    delivery = message?.state ?? null;
  }
  return {
    id: request.id,
    channel: request.channel,
    target: request.target,
    title: request.title,
    url: consentUrl(publicUrl, request),
    status: request.status,
    consent: request.consent,
    delivery,
    requestTime: request.createdAt.toISOString(),
    openedTime: request.openedAt?.toISOString() ?? null,
    locatedTime: request.locatedAt?.toISOString() ?? null,
    liveUntil: request.liveUntil?.toISOString() ?? null,
    expiresAt: request.expiresAt.toISOString(),
    lastPosition: last ? positionView(last) : null,
  };
}

/** Tells the requester, live, that a request changed. Call inside the transaction that changed it. */
export async function publishRequestChange(db: DatabaseExecutor, request: RequestRow, publicUrl: string) {
  await publishRequestEvent(db, {
    userId: request.userId,
    requestId: request.id,
    type: 'request',
    payload: await locationRequestView(db, request, publicUrl),
  });
}

/**
 * The opt_outs key: sha256 (hex) of the normalised target as location_requests stores it (E.164 for a number,
 * lower-cased for an email), so the list never holds a number or an address itself.
 */
export function optOutHash(target: string): string {
  return createHash('sha256').update(target.trim().toLowerCase()).digest('hex');
}
