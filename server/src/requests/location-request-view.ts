import type { Database, DatabaseExecutor } from '../db/open-database';
import { publishRequestEvent } from '../live/request-events';
import { looksOf } from '../sharing/look-recorder';
import {
  countOwnedRequests,
  lastPositionRows,
  latestPositionRows,
  ownedRequestId,
  ownedRequestsPage,
  ownedRequestWithDelivery,
  type PositionRow,
  type RequestRow,
  type RequestWithDelivery,
} from './request-rows';
import type { RequestListCache, RequestListPage } from './request-list-cache';
import { openLinkToken } from './request-tokens';
import { messageLinks } from './templates';
import type { DeliveryFailure, DeliveryState, LocationRequestView, PositionView } from './view-types';
import { twilioFailureReason } from '../messages/twilio-status';
import { isSmtpErrorCode, smtpFailureReason } from '../messages/smtp-receipts';
import { voiceNotesByRequest, type VoiceNoteView } from '../voice/voice-notes';

/** What the requester sees of a message's delivery: its state, and why it failed when a receipt said so. */
export interface DeliveryView {
  state: DeliveryState | null;
  failure: DeliveryFailure | null;
}

/**
 * The requester's delivery state of an outbox row and its latest receipt. A receipt of delivery, reading or failure
 * says more than the outbox's own "sent" (and, from the local outbox's dev tools, than "outbox"); a failure the
 * provider reported is 'failed', as one the outbox gave up on, with its reason.
 */
export function deliveryOf(
  row: Pick<RequestWithDelivery, 'delivery' | 'transport' | 'receipt' | 'receiptErrorCode'>,
): DeliveryView {
  if (row.delivery === null) return { state: null, failure: null };
  if (row.receipt === 'delivered' || row.receipt === 'read') return { state: row.receipt, failure: null };
  if (row.receipt === 'failed' || row.receipt === 'undelivered') {
    const code = row.receiptErrorCode;
    return {
      state: 'failed',
      failure: { reason: isSmtpErrorCode(code) ? smtpFailureReason(code) : twilioFailureReason(code) },
    };
  }
  if (row.delivery === 'sent' && row.transport === 'local') return { state: 'outbox', failure: null };
  return { state: row.delivery as DeliveryState, failure: null };
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/**
 * What the requester's own view needs to show a trackable link's URL: the site's address and the key that opens
 * the link's sealed token (linkTokenKey of the server's secret). Views without it show no URL: the live events,
 * which are stored (request_events) and must not hold a consent link.
 */
export interface LinkUrlSource {
  baseUrl: string;
  tokenKey: Buffer;
}

/** A trackable link's consent URL; null for a message, without a source, or when its token cannot be opened. */
function linkUrl(row: RequestRow, source: LinkUrlSource | null): string | null {
  if (row.channel !== 'link' || !source) return null;
  const token = (row.tokenCipher && openLinkToken(source.tokenKey, row.id, row.tokenCipher)) ?? row.legacyToken;
  return token ? messageLinks(source.baseUrl, row.locale, token).consentUrl : null;
}

export function toPositionView(row: PositionRow): PositionView {
  return {
    id: row.id,
    source: row.source as PositionView['source'],
    latitude: row.latitude,
    longitude: row.longitude,
    accuracyMeters: row.accuracyMeters,
    address: row.address,
    place: row.place ?? null,
    recordedAt: row.recordedAt.toISOString(),
  };
}

const NO_VOICE = { note: null, reply: null };

/**
 * The view of one row. Only a trackable link shows its URL, and only with a source to open it: the requester shares
 * that one themselves, while the link in an SMS or email belongs to its recipient.
 */
export function toLocationRequestView(
  row: RequestRow,
  delivery: DeliveryView,
  lastPosition: PositionRow | null,
  links: LinkUrlSource | null,
  voice: { note: VoiceNoteView | null; reply: VoiceNoteView | null } = NO_VOICE,
): LocationRequestView {
  return {
    id: row.id,
    channel: row.channel as LocationRequestView['channel'],
    target: row.target,
    title: row.title,
    url: linkUrl(row, links),
    status: row.status as LocationRequestView['status'],
    consent: row.consent as LocationRequestView['consent'],
    delivery: row.messageId ? delivery.state : null,
    deliveryFailure: row.messageId ? delivery.failure : null,
    whatsapp: row.sentByWhatsapp ? { fallback: row.whatsappFallback ?? null } : null,
    requestTime: row.createdAt.toISOString(),
    openedTime: iso(row.openedAt),
    locatedTime: iso(row.locatedAt),
    liveUntil: iso(row.liveUntil),
    liveEnd: row.liveEndedAt ? { at: row.liveEndedAt.toISOString(), reason: row.liveEndReason ?? null } : null,
    expiresAt: row.expiresAt.toISOString(),
    lastPosition: lastPosition ? toPositionView(lastPosition) : null,
    voiceNote: voice.note,
    voiceReply: voice.reply,
  };
}

/** The latest position of each request given. */
async function lastPositions(db: DatabaseExecutor, requestIds: string[]): Promise<Map<string, PositionRow>> {
  if (requestIds.length === 0) return new Map();
  const rows = await lastPositionRows(db, requestIds);
  return new Map(rows.map((row) => [row.requestId, row]));
}

/** Views of the given rows (with their delivery state and last position), in the same order. */
async function viewsOf(
  db: DatabaseExecutor,
  rows: RequestWithDelivery[],
  links: LinkUrlSource | null,
): Promise<LocationRequestView[]> {
  const ids = rows.map((row) => row.request.id);
  const latest = await lastPositions(db, ids);
  const voice = await voiceNotesByRequest(db, ids);
  return rows.map((row) =>
    toLocationRequestView(
      row.request,
      deliveryOf(row),
      latest.get(row.request.id) ?? null,
      links,
      voice.get(row.request.id),
    ),
  );
}

/** One request of one owner: undefined when it does not exist or belongs to someone else. */
export async function findOwnedRequest(
  db: DatabaseExecutor,
  userId: string,
  requestId: string,
  links: LinkUrlSource | null,
): Promise<LocationRequestView | undefined> {
  const rows = await ownedRequestWithDelivery(db, userId, requestId);
  const [view] = await viewsOf(db, rows, links);
  return view;
}

/** A page of the owner's requests, newest first. */
export async function listOwnedRequests(
  db: DatabaseExecutor,
  userId: string,
  page: number,
  pageSize: number,
  links: LinkUrlSource,
): Promise<{ items: LocationRequestView[]; total: number }> {
  const offset = (page - 1) * pageSize;
  const rows = await ownedRequestsPage(db, userId, pageSize, offset);
  // A page that is not full is the last one: the total is known without counting (most requesters have one page).
  const total =
    rows.length < pageSize && (rows.length > 0 || offset === 0)
      ? offset + rows.length
      : await countOwnedRequests(db, userId);
  return { items: await viewsOf(db, rows, links), total };
}

/**
 * Publishes a request's view to its owner's live stream, without a link's URL: the event is stored, and a stored
 * consent link would open the link to anyone reading the table. The dashboard keeps the URL it already has (from
 * the create answer or the list). Call inside the transaction of the change, so the event exists only if the
 * change does.
 */
export async function publishRequestView(
  db: DatabaseExecutor,
  userId: string,
  view: LocationRequestView,
): Promise<void> {
  await publishRequestEvent(db, { userId, requestId: view.id, type: 'request', payload: { ...view, url: null } });
}

/** Publishes the request's current view (publishRequestView) to its owner's live stream. */
export async function publishRequestChange(db: DatabaseExecutor, userId: string, requestId: string): Promise<void> {
  const view = await findOwnedRequest(db, userId, requestId, null);
  if (view) await publishRequestView(db, userId, view);
}

/**
 * The latest `limit` positions of one of the owner's requests, oldest first; undefined when the request does not
 * exist or belongs to someone else.
 */
export async function ownedRequestPositions(
  db: DatabaseExecutor,
  userId: string,
  requestId: string,
  limit: number,
): Promise<PositionView[] | undefined> {
  const owned = await ownedRequestId(db, userId, requestId);
  if (!owned) return undefined;
  const rows = await latestPositionRows(db, owned, limit);
  return rows.reverse().map(toPositionView);
}

/**
 * A page of the owner's requests as the list shows them, from the cache of their pages while it holds it; each
 * latest address shown is a look, recorded first (from the cache too: the recorder counts a look a minute).
 */
export async function requestsShownTo(
  db: Database,
  lists: RequestListCache,
  userId: string,
  page: number,
  pageSize: number,
  links: LinkUrlSource,
): Promise<RequestListPage> {
  const listed = await lists.page(userId, page, pageSize, () => listOwnedRequests(db, userId, page, pageSize, links));
  let shown: string[] | undefined;
  for (const item of listed.items) if (item.lastPosition !== null) (shown ??= []).push(item.id);
  if (shown) await looksOf(db).record(shown);
  return listed;
}
