import type { ServerResponse } from 'node:http';
import { countingAttempts } from '../auth/throttle';
import type { Database, DatabaseExecutor } from '../db/open-database';
import { ipPlaceParts, type IpPlace } from '../geo/ip-location';
import { englishAddress } from '../geo/place';
import { forgetCachedAddresses } from '../geo/cached-addresses';
import type { ReverseGeocoder } from '../geo/reverse-geocode';
import { HttpError } from '../lib/envelope';
import { messagesOf } from '../lib/messages';
import { publishRequestEvent, REQUEST_EVENTS_CHANNEL, USER_EVENTS_LOCK } from '../live/request-events';
import { publishRequestChange as publishView, toPositionView as positionView } from '../requests/location-request-view';
import type { PositionView } from '../requests/view-types';
import { optOutKey, recordOptOut } from '../requests/opt-outs';
import { noticeToRequester, type RequesterNoticeDeps } from '../requests/requester-notices';
import { eraseMapViews } from './map-view-rows';
import { mapViewsSeen, type MapViewsSeen } from './map-views';
import { requestTokenHash } from '../requests/request-tokens';
import {
  eraseSharedPositions,
  insertAbuseReport,
  insertPosition,
  ipPositionOf,
  lockLinkReports,
  positionCounts,
  reportCountOfLink,
  reportOfReporter,
  requestByTokenHash,
  requesterName,
  silentLiveRequests,
  storeLivePosition,
  tombstoneByTokenHash,
  updateRequest,
  type LinkTombstoneRow,
  type LocationRequestRow,
} from './link-rows';
import type { LinkState } from './link-states';
import type { ShareThrottle } from './share-throttle';
import type { LiveEndReason, REPORT_REASONS, REQUEST_CHANNELS, RequestChannel } from '../db/column-values';
import { eraseVoiceReply, keepNoteWithReport, voiceNotesByRequest } from '../voice/voice-notes';

// The recipient's consent rules: what a link's token may do in each state. The token is the only key (no account);
// nothing about the recipient is stored before Share, and every change the requester sees is published live in the
// transaction that makes it.

/** Abuse reports one link may get, each from another browser: enough for the operator to see it is not one person. */
export const REPORTS_PER_LINK = 3;

const say = messagesOf('share');

/** What the recipient sees of a request: its consent, or that it expired unanswered. */
export function linkState(request: LocationRequestRow, now = new Date()): LinkState {
  if (request.consent === 'none') return request.expiresAt <= now ? 'expired' : 'open';
  return request.consent as LinkState;
}

export const notSharing = (state: LinkState) => new HttpError(409, say(state));

/** The states in which the link's page offers the requester's voice note: not once it expired, ended or was erased. */
const NOTE_HEARD_IN = new Set<LinkState>(['open', 'sharing', 'declined', 'stopped']);

export const noteHeardIn = (request: LocationRequestRow) => NOTE_HEARD_IN.has(linkState(request));

/** The request behind a token, found by the token's hash (the only form in which it is stored); else 404. */
export async function findRequest(db: DatabaseExecutor, token: string, lock = false): Promise<LocationRequestRow> {
  const request = await requestByTokenHash(db, requestTokenHash(token), lock);
  if (!request) throw new HttpError(404, say('invalidLink'));
  return request;
}

/**
 * Which request a rule acts on: a link's token, or a request the consent overview found among those sent to the
 * address its visitor proved (`find` locks it, or throws 404). The rule is the same either way, and so is what the
 * requester is told.
 */
export type RequestKey = string | { find: (tx: DatabaseExecutor) => Promise<LocationRequestRow> };

const lockedRequest = (tx: DatabaseExecutor, key: RequestKey) =>
  typeof key === 'string' ? findRequest(tx, key, true) : key.find(tx);

/** Where recipients' open pages wait to hear that their request changed (live/live-event-hub.ts). */
export interface LinkListeners {
  canWatchLink(requestId: string): boolean;
  watchLink(requestId: string, response: ServerResponse): void;
}

/**
 * A recipient's open page listens for changes to its request, so that an end it did not make (the requester's
 * cancel, a suspension) shows within seconds rather than at its next call. Nothing is recorded; 404 for an unknown
 * or deleted link, 409 for one no longer open or shared through, 429 beyond a few tabs. `open` starts the stream
 * once the link is known.
 */
export async function listenToLink(
  db: DatabaseExecutor,
  listeners: LinkListeners,
  token: string,
  open: () => ServerResponse,
): Promise<void> {
  const request = await findRequest(db, token);
  // Once answered for good (declined, stopped, erased, cancelled, expired) nothing more can end: nothing to wait for.
  const state = linkState(request);
  if (state !== 'open' && state !== 'sharing') throw notSharing(state);
  if (!listeners.canWatchLink(request.id)) throw new HttpError(429, say('tooManyPages'));
  listeners.watchLink(request.id, open());
}

/** The request behind a token, or what is left of it once deleted (opt-out and report still work); else 404. */
function findRequestOrTombstone(db: DatabaseExecutor, token: string, lock = false) {
  return findByHashOrTombstone(db, requestTokenHash(token), lock);
}

async function findByHashOrTombstone(
  db: DatabaseExecutor,
  tokenHash: string,
  lock = false,
): Promise<
  { request: LocationRequestRow; tombstone?: undefined } | { request?: undefined; tombstone: LinkTombstoneRow }
> {
  const request = await requestByTokenHash(db, tokenHash, lock);
  if (request) return { request };
  const tombstone = await tombstoneByTokenHash(db, tokenHash);
  if (!tombstone) throw new HttpError(404, say('invalidLink'));
  return { tombstone };
}

/** What the recipient's page shows of a link (GET …/links/:token, and the server-rendered page). */
export interface LinkView {
  requesterName: string;
  channel: (typeof REQUEST_CHANNELS)[number];
  state: LinkState;
  expiresAt: string;
  liveUntil: string | null;
  canOptOut: boolean;
  shared: { approximate: boolean; precise: boolean };
  voiceNote: { durationMs: number; text: string | null } | null;
  voiceReply: { durationMs: number; recordedTime: string } | null;
}

/** An abuse report as its recipient writes it. */
export interface AbuseReport {
  reason: (typeof REPORT_REASONS)[number];
  details: string | null;
}

/**
 * The link behind a token, for its recipient: who asks, its state, what was shared. Records the first opening only
 * (no address, no device, nothing about who opened it); 404 for a token nobody issued.
 */
export async function openLink(db: Database, token: string): Promise<LinkView> {
  const found = await findRequestOrTombstone(db, token);
  if (found.tombstone) {
    // Deleted by the requester: who asked is gone with it; the message's opt-out and report links still work.
    return {
      requesterName: '',
      channel: found.tombstone.channel,
      state: 'deleted' as const,
      expiresAt: found.tombstone.deletedAt.toISOString(),
      liveUntil: null,
      canOptOut: found.tombstone.targetHash !== null,
      shared: { approximate: false, precise: false },
      voiceNote: null,
      voiceReply: null,
    };
  }
  const result = await db.transaction(async (tx) => {
    let row = await findRequest(tx, token, true);
    // After Stop and erase the link says only that it ended: not who asked, not what or until when.
    if (linkState(row) === 'withdrawn') {
      return { row, requesterName: '', shared: { ip: 0, gps: 0 }, voice: { note: null, reply: null } };
    }
    if (!row.openedAt) {
      // Only that it was opened: no address, no device, nothing about who opened it.
      row = await updateRequest(tx, row.id, { openedAt: new Date() });
      await publishView(tx, row.userId, row.id);
    }
    const voice = (await voiceNotesByRequest(tx, [row.id])).get(row.id) ?? { note: null, reply: null };
    return {
      row,
      requesterName: await requesterName(tx, row.userId),
      shared: await positionCounts(tx, row.id),
      voice,
    };
  });
  const { row } = result;
  return {
    requesterName: result.requesterName,
    channel: row.channel,
    state: linkState(row),
    expiresAt: row.expiresAt.toISOString(),
    liveUntil: row.liveUntil?.toISOString() ?? null,
    canOptOut: row.target !== null,
    shared: { approximate: result.shared.ip > 0, precise: result.shared.gps > 0 },
    voiceNote:
      result.voice.note && noteHeardIn(row)
        ? { durationMs: result.voice.note.durationMs, text: result.voice.note.text }
        : null,
    voiceReply: result.voice.reply
      ? { durationMs: result.voice.reply.durationMs, recordedTime: result.voice.reply.recordedTime }
      : null,
  };
}

/**
 * The approximate place recorded when the recipient shared through the link (null when the IP database knew none,
 * or nothing is shared now); 404 for a token nobody issued. Only for the browser that shared (web/shared-here.ts).
 */
export async function approximatePlaceShared(db: Database, token: string): Promise<PositionView | null> {
  const request = await findRequest(db, token);
  if (linkState(request) !== 'sharing') return null;
  const position = await ipPositionOf(db, request.id);
  return position ? positionView(position) : null;
}

/**
 * When the requester last looked at what the recipient shares, and how often lately: only while they share (before
 * consent and after Stop sharing there is nothing to look at: 409, as for every action the state does not allow).
 */
export async function mapViewsOfLink(db: Database, token: string): Promise<MapViewsSeen> {
  const request = await findRequest(db, token);
  const state = linkState(request);
  if (state !== 'sharing') throw notSharing(state);
  return mapViewsSeen(db, request.id);
}

/** Publishes a new position of a request to its requester. */
const publishPosition = (db: DatabaseExecutor, row: LocationRequestRow, position: PositionView) =>
  publishRequestEvent(db, {
    userId: row.userId,
    requestId: row.id,
    type: 'position',
    payload: { requestId: row.id, position },
  });

/**
 * Share: records the approximate place of the recipient's address `ip` (none when the IP database does not know
 * it) and turns sharing on. Allowed while the link is open; asked again while sharing it records nothing new and
 * answers the place recorded the first time.
 */
export async function consentToShare(
  db: Database,
  notices: RequesterNoticeDeps,
  lookupIp: (ip: string) => IpPlace | null,
  token: string,
  ip: string,
): Promise<PositionView | null> {
  // Looked up outside the transaction: reading the database file the first time takes a moment.
  const place = lookupIp(ip);
  const shared = await db.transaction(async (tx) => {
    let row = await findRequest(tx, token, true);
    const state = linkState(row);
    if (state !== 'open' && state !== 'sharing') throw notSharing(state);
    if (state === 'sharing') {
      const existing = await ipPositionOf(tx, row.id);
      return existing ? positionView(existing) : null;
    }

    const now = new Date();
    const position = place
      ? await insertPosition(tx, {
          requestId: row.id,
          source: 'ip',
          latitude: place.latitude,
          longitude: place.longitude,
          // The database gives a place, not a radius: the accuracy is honestly unknown.
          accuracyMeters: null,
          address: englishAddress(ipPlaceParts(place)),
          place: ipPlaceParts(place),
          recordedAt: now,
        })
      : null;
    row = await updateRequest(tx, row.id, {
      consent: 'sharing',
      consentedAt: now,
      decidedAt: now,
      ...(position ? { status: 'ip_located', locatedAt: now } : {}),
    });
    if (position) await publishPosition(tx, row, positionView(position));
    await publishView(tx, row.userId, row.id);
    await noticeToRequester(tx, notices, row, 'shared');
    return position ? positionView(position) : null;
  });
  notices.outbox.kick();
  return shared;
}

/** A position from the recipient's browser. */
export interface BrowserPosition {
  latitude: number;
  longitude: number;
  accuracy: number;
  recordedAt: string;
}

/**
 * A position from the recipient's browser: accepted while sharing, the first at any time, later ones while live
 * sharing is on (else `accepted: false`); 409 when the recipient is not sharing. It counts as a use of the link
 * from `ip` (429 when over a limit): with a live share's position in its own statement, else before anything.
 * A live share's position stored by that statement also says whose request it is (`requesterId`).
 */
export async function addBrowserPosition(
  db: Database,
  geocoder: ReverseGeocoder,
  { throttle, ip }: { throttle: ShareThrottle; ip: string },
  token: string,
  { latitude, longitude, accuracy, recordedAt }: BrowserPosition,
): Promise<{ accepted: boolean; liveUntil: string | null; requesterId?: string }> {
  const located = async (now: Date) => {
    const place = await geocoder.placeOf(latitude, longitude);
    const given = new Date(recordedAt);
    return {
      latitude,
      longitude,
      accuracyMeters: accuracy,
      address: englishAddress(place),
      place,
      // A device clock ahead of ours must not date a position in the future.
      recordedAt: given > now ? now : given,
    };
  };

  let stored: Awaited<ReturnType<typeof located>> | undefined;
  if (geocoder.answersLocally) {
    // The bundled places answer from memory: a live share's every position after the first is stored, published
    // and heard from in one statement. Anything else (the first position, a window that ended, a link not
    // shared) is left to the rules below.
    const now = new Date();
    stored = await located(now);
    const positionView: PositionView = {
      id: 0,
      source: 'gps',
      ...stored,
      recordedAt: stored.recordedAt.toISOString(),
    };
    const tokenHash = requestTokenHash(token);
    const counters = throttle.linkCounters(ip, tokenHash);
    const { counts, liveUntil, requesterId } = await storeLivePosition(db, {
      tokenHash,
      now,
      position: stored,
      positionView,
      userEventsLock: USER_EVENTS_LOCK,
      channel: REQUEST_EVENTS_CHANNEL,
      heardBefore: new Date(now.getTime() - LIVE_HEARD_RENEWED_MS),
      counting: countingAttempts(counters),
    });
    throttle.judgeLink(counters, counts);
    if (liveUntil) return { accepted: true, liveUntil: liveUntil.toISOString(), requesterId };
  } else {
    await throttle.link(ip, token);
    // A geocoding service may take seconds, and no row should wait on it: asked before the transaction, and only
    // for a request that shares.
    const beforeState = linkState(await findRequest(db, token));
    if (beforeState !== 'sharing') throw notSharing(beforeState);
    stored = await located(new Date());
  }

  return db.transaction(async (tx) => {
    let row = await findRequest(tx, token, true);
    const state = linkState(row);
    if (state !== 'sharing') throw notSharing(state);
    const now = new Date();
    const first = (await positionCounts(tx, row.id)).gps === 0;
    const live = row.liveUntil !== null && row.liveUntil > now;
    if (!first && !live) return { accepted: false, liveUntil: row.liveUntil?.toISOString() ?? null };

    const position = await insertPosition(tx, {
      requestId: row.id,
      source: 'gps',
      ...stored,
      recordedAt: stored.recordedAt > now ? now : stored.recordedAt,
    });
    await publishPosition(tx, row, positionView(position));
    if (live) row = await updateRequest(tx, row.id, { liveHeardAt: now });
    if (row.status !== 'gps_tracked') {
      row = await updateRequest(tx, row.id, { status: 'gps_tracked', locatedAt: row.locatedAt ?? now });
      await publishView(tx, row.userId, row.id);
    }
    return { accepted: true, liveUntil: row.liveUntil?.toISOString() ?? null };
  });
}

/** Live sharing for `minutes` from now, while sharing; answers its end. */
export function startLiveSharing(db: Database, token: string, minutes: number): Promise<string> {
  return db.transaction(async (tx) => {
    const row = await findRequest(tx, token, true);
    const state = linkState(row);
    if (state !== 'sharing') throw notSharing(state);
    const now = new Date();
    const liveUntil = new Date(now.getTime() + minutes * 60_000);
    await updateRequest(tx, row.id, { liveUntil, liveHeardAt: now, liveEndedAt: null, liveEndReason: null });
    await publishView(tx, row.userId, row.id);
    return liveUntil.toISOString();
  });
}

/**
 * What the live page's calls act on: the request's row while a live window is open, with `watches` saying whether it
 * is the window the page watched (a late call must not touch one the recipient just started). Null when nothing is
 * live, after Stop sharing or Stop and erase too (the page then stops); 409 in any other state.
 */
async function openLiveWindow(tx: DatabaseExecutor, token: string, watched: string, now: Date) {
  const row = await findRequest(tx, token, true);
  const state = linkState(row);
  if (state === 'stopped' || state === 'withdrawn') return null;
  if (state !== 'sharing') throw notSharing(state);
  if (row.liveUntil === null || row.liveUntil <= now) return null;
  return { row, liveUntil: row.liveUntil, watches: row.liveUntil.getTime() === new Date(watched).getTime() };
}

/**
 * Ends the live window the page watched (`watched`, its end) before its time for `reason`, keeping consent; a newer
 * window is kept. Answers the live window left (null: none).
 */
export function endLiveSharing(
  db: Database,
  token: string,
  watched: string,
  reason: LiveEndReason | undefined,
): Promise<string | null> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const live = await openLiveWindow(tx, token, watched, now);
    if (!live) return null;
    if (!live.watches) return live.liveUntil.toISOString();
    await updateRequest(tx, live.row.id, { liveUntil: null, liveEndedAt: now, liveEndReason: reason ?? null });
    await publishView(tx, live.row.userId, live.row.id);
    return null;
  });
}

/**
 * The live page's call once a minute while its window is open: it is still there. Answers the window open now
 * (null: none, e.g. ended while the phone slept: the page then stops watching); a newer window is not touched.
 */
export function heardFromLivePage(db: Database, token: string, watched: string): Promise<string | null> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const live = await openLiveWindow(tx, token, watched, now);
    if (!live) return null;
    if (live.watches) await updateRequest(tx, live.row.id, { liveHeardAt: now });
    return live.liveUntil.toISOString();
  });
}

/** A live page not heard from for this long has gone (closed, or the phone asleep): its window ends. */
export const LIVE_SILENCE_MS = 2 * 60_000;

/**
 * How old the live page's mark may grow before a position renews it: far inside LIVE_SILENCE_MS, so a page that
 * sends positions is never taken for a silent one, while a live share's positions mostly leave the request's row as
 * it is.
 */
const LIVE_HEARD_RENEWED_MS = 15_000;

/**
 * Ends the live windows whose page fell silent for LIVE_SILENCE_MS (reason `silent`), so the requester's live badge
 * does not stay on for hours after the page closed. Windows started before pages reported (no `liveHeardAt`) run to
 * their end. Answers how many ended.
 */
export async function endSilentLiveWindows(db: Database, now = new Date()): Promise<number> {
  const silentSince = new Date(now.getTime() - LIVE_SILENCE_MS);
  return db.transaction(async (tx) => {
    const silent = await silentLiveRequests(tx, now, silentSince);
    for (const row of silent) {
      await updateRequest(tx, row.id, { liveUntil: null, liveEndedAt: now, liveEndReason: 'silent' });
      await publishView(tx, row.userId, row.id);
    }
    return silent.length;
  });
}

/**
 * Stop or Decline: from the one state it fits, to a final one, published to the requester. Asked again once done,
 * it answers the same; any other state: 409 saying why.
 */
async function decide(
  db: Database,
  notices: RequesterNoticeDeps,
  key: RequestKey,
  from: LinkState,
  change: { consent: 'stopped' | 'declined'; liveUntil?: null },
): Promise<LinkState> {
  const decided = await db.transaction(async (tx) => {
    let row = await lockedRequest(tx, key);
    const state = linkState(row);
    if (state === change.consent) return state;
    if (state !== from) throw notSharing(state);
    row = await updateRequest(tx, row.id, { ...change, decidedAt: new Date() });
    await publishView(tx, row.userId, row.id);
    await noticeToRequester(tx, notices, row, change.consent);
    return linkState(row);
  });
  notices.outbox.kick();
  return decided;
}

/** Stop sharing at once; what was shared stays visible to the requester. */
export const stopSharing = (db: Database, notices: RequesterNoticeDeps, key: RequestKey) =>
  decide(db, notices, key, 'sharing', { consent: 'stopped', liveUntil: null });

/** Decline the request: nothing is shared. */
export const declineRequest = (db: Database, notices: RequesterNoticeDeps, key: RequestKey) =>
  decide(db, notices, key, 'open', { consent: 'declined' });

/**
 * Stop and erase: withdraws consent and erases every position shared through the link, the live events that
 * carried them, their cached street addresses and the recipient's voice reply; the requester sees only that consent
 * was withdrawn.
 */
export async function withdrawConsent(
  db: Database,
  notices: RequesterNoticeDeps,
  geocoder: ReverseGeocoder,
  key: RequestKey,
): Promise<LinkState> {
  const withdrawn = await db.transaction(async (tx) => {
    let row = await lockedRequest(tx, key);
    const state = linkState(row);
    if (state === 'withdrawn') return state;
    if (state !== 'sharing' && state !== 'stopped') throw notSharing(state);
    await forgetCachedAddresses(tx, geocoder, [row.id]);
    await eraseSharedPositions(tx, row.id);
    await eraseMapViews(tx, row.id);
    await eraseVoiceReply(tx, row.id);
    row = await updateRequest(tx, row.id, {
      consent: 'withdrawn',
      status: 'pending',
      locatedAt: null,
      liveUntil: null,
      decidedAt: new Date(),
    });
    await publishRequestEvent(tx, {
      userId: row.userId,
      requestId: row.id,
      type: 'withdrawn',
      payload: { requestId: row.id },
    });
    await publishView(tx, row.userId, row.id);
    await noticeToRequester(tx, notices, row, 'withdrawn');
    return linkState(row);
  });
  notices.outbox.kick();
  return withdrawn;
}

/**
 * Opts the number or address the request went to out of every future request (only its keyed hash is stored),
 * declining the request too while unanswered. Also through a deleted request's link; a trackable link: 409.
 */
export function optOutOfRequests(db: Database, hmacSecret: Buffer, token: string): Promise<void> {
  return db.transaction(async (tx) => {
    const found = await findRequestOrTombstone(tx, token, true);
    // A deleted request's tombstone kept the key its request had: the keyed one, or the old plain hash for a
    // request stored before keys (still honoured by every opt-out lookup).
    const targetHash = found.request
      ? found.request.target && optOutKey(hmacSecret, found.request.target)
      : found.tombstone.targetHash;
    const channel = found.request?.channel ?? found.tombstone!.channel;
    if (!targetHash) throw new HttpError(409, say('nothingToOptOut'));
    await recordOptOut(tx, targetHash, channel);
    if (found.request) await declineUnanswered(tx, found.request);
  });
}

/** An opt-out declines the request it came through while unanswered, as the requester sees at once. */
async function declineUnanswered(tx: DatabaseExecutor, row: LocationRequestRow): Promise<void> {
  if (linkState(row) !== 'open') return;
  await updateRequest(tx, row.id, { consent: 'declined', decidedAt: new Date() });
  await publishView(tx, row.userId, row.id);
}

/**
 * The opt-out of an address proven otherwise (the consent overview's code, or a reply from the number): its keyed
 * hash opts out of every future request, and every request to it still unanswered is declined, as the link's
 * opt-out declines its own. `alsoIn` joins the same transaction (a reply's confirmation message).
 */
export function optOutAddress(
  db: Database,
  targetHash: string,
  channel: RequestChannel,
  unanswered: Exclude<RequestKey, string>[],
  alsoIn?: (tx: DatabaseExecutor) => Promise<void>,
): Promise<void> {
  return db.transaction(async (tx) => {
    await recordOptOut(tx, targetHash, channel);
    for (const key of unanswered) await declineUnanswered(tx, await key.find(tx));
    await alsoIn?.(tx);
  });
}

/**
 * Stores an abuse report for the operator with the request, its requester and a copy of its voice note (all kept
 * once the request is deleted). One per link and reporting browser: the same browser reporting again gets its
 * first report's answer and changes nothing. At most REPORTS_PER_LINK per link (409 after that, nothing stored):
 * the operator already has the link, and whoever holds it cannot fill the database by reporting it again. Each
 * report counts in the reporting address's throttle (429 when over).
 */
export async function reportAbuse(
  db: Database,
  throttle: ShareThrottle,
  ip: string,
  link: string | { tokenHash: string },
  reporterKey: string,
  report: AbuseReport,
): Promise<string> {
  await throttle.report(ip);
  // The overview reports a request it found by its address: by the token's hash, which is all it has of the link.
  const tokenHash = typeof link === 'string' ? requestTokenHash(link) : link.tokenHash;
  return db.transaction(async (tx) => {
    const found = await findByHashOrTombstone(tx, tokenHash);
    await lockLinkReports(tx, tokenHash);
    const earlier = await reportOfReporter(tx, tokenHash, reporterKey);
    if (earlier) return earlier;
    if ((await reportCountOfLink(tx, tokenHash)) >= REPORTS_PER_LINK) {
      throw new HttpError(409, say('reportsFull', { limit: REPORTS_PER_LINK }));
    }
    const reportId = await insertAbuseReport(tx, {
      requestId: found.request?.id ?? null,
      requesterId: found.request?.userId ?? found.tombstone!.requesterId,
      tokenHash,
      reporterKey,
      reason: report.reason,
      details: report.details,
    });
    // The operator hears what the recipient heard, even once the request or the account is gone.
    if (found.request) await keepNoteWithReport(tx, found.request.id, reportId);
    return reportId;
  });
}
