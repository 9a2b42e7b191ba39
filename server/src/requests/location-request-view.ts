import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Locale } from '../auth/users';
import type { DatabaseExecutor } from '../db/open-database';
import { locationRequests, outboxMessages, positions } from '../db/schema';
import type { Place } from '../geo/place';
import { publishRequestEvent } from '../live/request-events';
import { messageLinks } from './templates';

/** A position as the requester sees it (docs/api-v1.md `Position`). */
export interface PositionView {
  id: number;
  source: 'ip' | 'gps';
  latitude: number;
  longitude: number;
  accuracyMeters: number | null;
  address: string | null;
  /** The address's parts, for the reader's language; null on positions stored before them. */
  place: Place | null;
  recordedAt: string;
}

/** A request as its owner sees it (docs/api-v1.md `LocationRequest`). */
export interface LocationRequestView {
  id: string;
  channel: 'sms' | 'email' | 'link';
  target: string | null;
  title: string | null;
  url: string | null;
  status: 'pending' | 'ip_located' | 'gps_tracked';
  consent: 'none' | 'declined' | 'sharing' | 'stopped' | 'withdrawn' | 'cancelled';
  delivery: DeliveryState | null;
  requestTime: string;
  openedTime: string | null;
  locatedTime: string | null;
  liveUntil: string | null;
  expiresAt: string;
  lastPosition: PositionView | null;
}

/**
 * What happened to the message: 'queued' (waiting for the provider, or retrying), 'sent' (a provider, SMTP or
 * Twilio, accepted it), 'failed' (given up), or 'outbox': no provider is configured for its channel, so it stays in
 * the local outbox (/dev/outbox) and never reaches the recipient. The outbox row says 'sent' with transport
 * 'local' (it is done with); the requester must not read that as delivered.
 */
export type DeliveryState = 'queued' | 'sent' | 'failed' | 'outbox';

/** The requester's delivery state of an outbox row. */
export function deliveryStateOf(state: string | null, transport: string | null): DeliveryState | null {
  if (state === null) return null;
  if (state === 'sent' && transport === 'local') return 'outbox';
  return state as DeliveryState;
}

type RequestRow = typeof locationRequests.$inferSelect;
type PositionRow = typeof positions.$inferSelect;

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toPositionView(row: PositionRow): PositionView {
  return {
    id: row.id,
    source: row.source as PositionView['source'],
    latitude: row.latitude,
    longitude: row.longitude,
    accuracyMeters: row.accuracyMeters,
    address: row.address,
    place: (row.place as Place | null) ?? null,
    recordedAt: row.recordedAt.toISOString(),
  };
}

/**
 * The view of one row. Only a trackable link shows its URL: the requester shares that one themselves, while the
 * link in an SMS or email belongs to its recipient.
 */
export function toLocationRequestView(
  row: RequestRow,
  delivery: DeliveryState | null,
  lastPosition: PositionRow | null,
  baseUrl: string,
): LocationRequestView {
  return {
    id: row.id,
    channel: row.channel as LocationRequestView['channel'],
    target: row.target,
    title: row.title,
    url: row.channel === 'link' ? messageLinks(baseUrl, row.locale as Locale, row.token).consentUrl : null,
    status: row.status as LocationRequestView['status'],
    consent: row.consent as LocationRequestView['consent'],
    delivery: row.messageId ? delivery : null,
    requestTime: row.createdAt.toISOString(),
    openedTime: iso(row.openedAt),
    locatedTime: iso(row.locatedAt),
    liveUntil: iso(row.liveUntil),
    expiresAt: row.expiresAt.toISOString(),
    lastPosition: lastPosition ? toPositionView(lastPosition) : null,
  };
}

/** The latest position of each request given. */
async function lastPositions(db: DatabaseExecutor, requestIds: string[]): Promise<Map<string, PositionRow>> {
  if (requestIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([positions.requestId])
    .from(positions)
    .where(inArray(positions.requestId, requestIds))
    .orderBy(positions.requestId, desc(positions.id));
  return new Map(rows.map((row) => [row.requestId, row]));
}

/** Views of the given rows (with their delivery state and last position), in the same order. */
async function viewsOf(
  db: DatabaseExecutor,
  rows: { request: RequestRow; delivery: string | null; transport: string | null }[],
  baseUrl: string,
): Promise<LocationRequestView[]> {
  const latest = await lastPositions(
    db,
    rows.map((row) => row.request.id),
  );
  return rows.map((row) =>
    toLocationRequestView(
      row.request,
      deliveryStateOf(row.delivery, row.transport),
      latest.get(row.request.id) ?? null,
      baseUrl,
    ),
  );
}

function selectWithDelivery(db: DatabaseExecutor) {
  return db
    .select({ request: locationRequests, delivery: outboxMessages.state, transport: outboxMessages.transport })
    .from(locationRequests)
    .leftJoin(outboxMessages, eq(outboxMessages.id, locationRequests.messageId));
}

/** One request of one owner: undefined when it does not exist or belongs to someone else. */
export async function findOwnedRequest(
  db: DatabaseExecutor,
  userId: string,
  requestId: string,
  baseUrl: string,
): Promise<LocationRequestView | undefined> {
  const rows = await selectWithDelivery(db).where(
    and(eq(locationRequests.id, requestId), eq(locationRequests.userId, userId)),
  );
  const [view] = await viewsOf(db, rows, baseUrl);
  return view;
}

/** A page of the owner's requests, newest first. */
export async function listOwnedRequests(
  db: DatabaseExecutor,
  userId: string,
  page: number,
  pageSize: number,
  baseUrl: string,
): Promise<{ items: LocationRequestView[]; total: number }> {
  const rows = await selectWithDelivery(db)
    .where(eq(locationRequests.userId, userId))
    .orderBy(desc(locationRequests.createdAt), desc(locationRequests.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const total = await db.$count(locationRequests, eq(locationRequests.userId, userId));
  return { items: await viewsOf(db, rows, baseUrl), total };
}

/**
 * Publishes the request's current view to its owner's live stream. Call inside the transaction of the change,
 * so the event exists only if the change does.
 */
export async function publishRequestChange(
  db: DatabaseExecutor,
  userId: string,
  requestId: string,
  baseUrl: string,
): Promise<void> {
  const view = await findOwnedRequest(db, userId, requestId, baseUrl);
  if (!view) return;
  await publishRequestEvent(db, { userId, requestId, type: 'request', payload: { ...view } });
}
