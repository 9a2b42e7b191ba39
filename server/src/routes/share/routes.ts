import { and, count, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { countAttempt, type ThrottleRule } from '../../auth/throttle';
import { defineMessages, sayCommon } from '../../lib/messages';
import type { Config } from '../../config';
import type { Database, DatabaseExecutor } from '../../db/open-database';
import { users } from '../../db/schema/accounts';
import {
  abuseReports,
  geocodeCache,
  linkTombstones,
  locationRequests,
  positions,
  requestEvents,
} from '../../db/schema/location-requests';
import { DBIP_ATTRIBUTION, ipPlaceParts } from '../../geo/ip-location';
import { englishAddress } from '../../geo/place';
import { errorEnvelope, errorResponses, HttpError, ok } from '../../lib/envelope';
import { keyedHash } from '../../lib/keyed-hash';
import { publishRequestEvent } from '../../live/request-events';
import {
  publishRequestChange as publishView,
  toPositionView as positionView,
} from '../../requests/location-request-view';
import { optOutKey, recordOptOut } from '../../requests/opt-outs';
import { requestTokenHash } from '../../requests/request-tokens';
import {
  consentResponse,
  linkResponse,
  type linkView,
  liveBody,
  liveEndBody,
  liveEndResponse,
  liveResponse,
  optOutResponse,
  positionBody,
  positionResponse,
  reportBody,
  reportResponse,
  stateResponse,
  tokenParams,
  type LinkState,
} from './schemas';
import { throwWhenLimited } from '../../lib/throttle-answer';

// Counted in the database, so they hold across instances. A live share posts a position every few seconds at
// most; a page load makes a handful of calls. People behind one carrier NAT share an address: the IP rule is wide.
export const SHARE_PER_IP: ThrottleRule = { limit: 240, windowSeconds: 60 };
export const SHARE_PER_TOKEN: ThrottleRule = { limit: 60, windowSeconds: 60 };
export const REPORTS_PER_IP: ThrottleRule = { limit: 5, windowSeconds: 60 * 60 };

type RequestRow = typeof locationRequests.$inferSelect;

export const INVALID_LINK = 'Invalid link!';

const say = defineMessages(
  {
    invalidLink: INVALID_LINK,
    open: 'You have not agreed to share your location through this link.',
    sharing: 'Sharing is on.',
    declined: 'You declined this request.',
    stopped: 'You stopped sharing through this link.',
    withdrawn: 'You withdrew your consent and your shared positions were erased.',
    cancelled: 'The person who asked cancelled this request.',
    expired: 'This link has expired.',
    deleted: 'The person who asked deleted this request.',
    nothingToOptOut:
      'This link was not sent to a phone number or an email address, so there is nothing to opt out. ' +
      'You can decline it or simply ignore it.',
  },
  {
    invalidLink: 'Tautan tidak valid!',
    open: 'Anda belum setuju membagikan lokasi Anda melalui tautan ini.',
    sharing: 'Berbagi lokasi sedang aktif.',
    declined: 'Anda telah menolak permintaan ini.',
    stopped: 'Anda telah berhenti berbagi lokasi melalui tautan ini.',
    withdrawn: 'Anda telah menarik persetujuan dan posisi yang Anda bagikan sudah dihapus.',
    cancelled: 'Orang yang meminta telah membatalkan permintaan ini.',
    expired: 'Tautan ini sudah kedaluwarsa.',
    deleted: 'Orang yang meminta telah menghapus permintaan ini.',
    nothingToOptOut:
      'Tautan ini tidak dikirim ke nomor telepon atau alamat email, jadi tidak ada yang perlu diberhentikan. ' +
      'Anda bisa menolaknya atau mengabaikannya saja.',
  },
);

/** What the recipient sees of a request: its consent, or that it expired unanswered. */
export function linkState(request: RequestRow, now = new Date()): LinkState {
  if (request.consent === 'none') return request.expiresAt <= now ? 'expired' : 'open';
  return request.consent as LinkState;
}

const notSharing = (state: LinkState) => new HttpError(409, say(state));

// The per-token throttle's key: part of the token's hash, never the token.
const tokenKey = (token: string) => requestTokenHash(token).slice(0, 32);

/** The request behind a token, found by the token's hash (the only form in which it is stored); else 404. */
async function findRequest(db: DatabaseExecutor, token: string, lock = false): Promise<RequestRow> {
  const query = db
    .select()
    .from(locationRequests)
    .where(eq(locationRequests.tokenHash, requestTokenHash(token)));
  const [request] = lock ? await query.for('update') : await query;
  if (!request) throw new HttpError(404, say('invalidLink'));
  return request;
}

type Tombstone = typeof linkTombstones.$inferSelect;

/** The request behind a token, or what is left of it once deleted (opt-out and report still work); else 404. */
async function findRequestOrTombstone(
  db: DatabaseExecutor,
  token: string,
  lock = false,
): Promise<{ request: RequestRow; tombstone?: undefined } | { request?: undefined; tombstone: Tombstone }> {
  const tokenHash = requestTokenHash(token);
  const query = db.select().from(locationRequests).where(eq(locationRequests.tokenHash, tokenHash));
  const [request] = lock ? await query.for('update') : await query;
  if (request) return { request };
  const [tombstone] = await db.select().from(linkTombstones).where(eq(linkTombstones.tokenHash, tokenHash));
  if (!tombstone) throw new HttpError(404, say('invalidLink'));
  return { tombstone };
}

async function updateRequest(db: DatabaseExecutor, id: string, values: Partial<RequestRow>): Promise<RequestRow> {
  const [row] = await db.update(locationRequests).set(values).where(eq(locationRequests.id, id)).returning();
  if (!row) throw new Error('the location request vanished');
  return row;
}

/** What the recipient's page shows of a link (GET …/links/:token, and the server-rendered page). */
export type LinkView = z.infer<typeof linkView>;

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
    };
  }
  const result = await db.transaction(async (tx) => {
    let row = await findRequest(tx, token, true);
    // After Stop and erase the link says only that it ended: not who asked, not what or until when.
    if (linkState(row) === 'withdrawn') return { row, requesterName: '', shared: [] };
    if (!row.openedAt) {
      // Only that it was opened: no address, no device, nothing about who opened it.
      row = await updateRequest(tx, row.id, { openedAt: new Date() });
      await publishView(tx, row.userId, row.id);
    }
    const [requester] = await tx.select({ displayName: users.displayName }).from(users).where(eq(users.id, row.userId));
    const shared = await tx
      .select({ source: positions.source, n: count() })
      .from(positions)
      .where(eq(positions.requestId, row.id))
      .groupBy(positions.source);
    return { row, requesterName: requester?.displayName ?? '', shared };
  });
  const { row } = result;
  return {
    requesterName: result.requesterName,
    channel: row.channel,
    state: linkState(row),
    expiresAt: row.expiresAt.toISOString(),
    liveUntil: row.liveUntil?.toISOString() ?? null,
    canOptOut: row.target !== null,
    shared: {
      approximate: result.shared.some((group) => group.source === 'ip'),
      precise: result.shared.some((group) => group.source === 'gps'),
    },
  };
}

/**
 * The throttle of everything done through a link, by address (kept as an HMAC of it: nothing about the recipient
 * is stored before consent, not even the address in a throttle key) and by token. Throws 429 when over.
 */
export function shareThrottle(app: FastifyInstance, config: Pick<Config, 'authThrottleScale'>) {
  const addressKey = (ip: string) => keyedHash(app.auth.secrets.hmacSecret, 'share-ip', ip);
  const scaled = (rule: ThrottleRule): ThrottleRule => ({ ...rule, limit: rule.limit * config.authThrottleScale });
  const throttle = async (key: string, rule: ThrottleRule) =>
    throwWhenLimited(await countAttempt(app.db, key, scaled(rule)), sayCommon, 'tooManyRequests');
  return {
    /** One use of a link (a page or a call). */
    link: async (ip: string, token: string) => {
      await throttle(`share:ip:${addressKey(ip)}`, SHARE_PER_IP);
      await throttle(`share:token:${tokenKey(token)}`, SHARE_PER_TOKEN);
    },
    /** One abuse report. */
    report: (ip: string) => throttle(`share:report:ip:${addressKey(ip)}`, REPORTS_PER_IP),
  };
}

/**
 * The recipient's consent routes (docs/api-v1.md). The link's token is the only key: no account.
 * Nothing about the recipient is stored before Share; every change the requester sees is published live in the
 * transaction that makes it.
 */
const shareRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, options) => {
  const { hmacSecret } = app.auth.secrets;
  const throttle = shareThrottle(app, options.config);

  app.addHook('preHandler', async (request) => {
    const { token } = request.params as { token: string };
    await throttle.link(request.ip, token);
  });

  /**
   * Stop or Decline: from the one state it fits, to a final one, published to the requester. Asked again once done,
   * it answers the same; any other state: 409 saying why.
   */
  const decide = (token: string, from: LinkState, change: { consent: 'stopped' | 'declined'; liveUntil?: null }) =>
    app.db.transaction(async (tx) => {
      let row = await findRequest(tx, token, true);
      const state = linkState(row);
      if (state === change.consent) return ok({ state });
      if (state !== from) throw notSharing(state);
      row = await updateRequest(tx, row.id, { ...change, decidedAt: new Date() });
      await publishView(tx, row.userId, row.id);
      return ok({ state: linkState(row) });
    });

  const responses = { ...errorResponses, 404: errorEnvelope, 409: errorEnvelope };
  const tags = ['share'];

  app.get(
    '/api/v1/share/links/:token',
    {
      schema: {
        tags,
        summary: 'The consent page: who asks, and the state of the link. Records the first opening only.',
        params: tokenParams,
        response: { 200: linkResponse, ...responses },
      },
    },
    async (request) => ok(await openLink(app.db, request.params.token)),
  );

  app.post(
    '/api/v1/share/links/:token/consent',
    {
      schema: {
        tags,
        summary: 'Share: records the approximate place of the caller’s IP address (IP Located)',
        description:
          'Allowed while the link is open (and again while sharing: nothing new is recorded). When the bundled ' +
          'DB-IP database does not know the address, `approximate` is null and the request stays pending until ' +
          'a position arrives.',
        params: tokenParams,
        response: { 200: consentResponse, ...responses },
      },
    },
    async (request) => {
      // Looked up outside the transaction: reading the database file the first time takes a moment.
      const place = app.geo.lookupIp(request.ip);
      const approximate = await app.db.transaction(async (tx) => {
        let row = await findRequest(tx, request.params.token, true);
        const state = linkState(row);
        if (state !== 'open' && state !== 'sharing') throw notSharing(state);
        const [existing] = await tx
          .select()
          .from(positions)
          .where(and(eq(positions.requestId, row.id), eq(positions.source, 'ip')))
          .limit(1);
        if (state === 'sharing') return existing ? positionView(existing) : null;

        const now = new Date();
        let position = null;
        if (place) {
          [position] = await tx
            .insert(positions)
            .values({
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
            .returning();
        }
        row = await updateRequest(tx, row.id, {
          consent: 'sharing',
          consentedAt: now,
          decidedAt: now,
          ...(position ? { status: 'ip_located', locatedAt: now } : {}),
        });
        if (position) {
          await publishRequestEvent(tx, {
            userId: row.userId,
            requestId: row.id,
            type: 'position',
            payload: { requestId: row.id, position: positionView(position) },
          });
        }
        await publishView(tx, row.userId, row.id);
        return position ? positionView(position) : null;
      });
      return ok({ state: 'sharing' as const, approximate, attribution: DBIP_ATTRIBUTION });
    },
  );

  app.post(
    '/api/v1/share/links/:token/positions',
    {
      schema: {
        tags,
        summary: 'A position from the browser (GPS Tracked)',
        description:
          'Accepted while sharing: the first one at any time, later ones while live sharing is on. ' +
          '`accepted: false` when the live window has ended; 409 when the recipient is not sharing.',
        params: tokenParams,
        body: positionBody,
        response: { 200: positionResponse, ...responses },
      },
    },
    async (request) => {
      const { latitude, longitude, accuracy, recordedAt } = request.body;
      const before = await findRequest(app.db, request.params.token);
      const beforeState = linkState(before);
      if (beforeState !== 'sharing') throw notSharing(beforeState);
      // Geocoded before the transaction: a geocoding service may take seconds, and no row should wait on it.
      const place = await app.geo.reverseGeocoder.placeOf(latitude, longitude);

      return app.db.transaction(async (tx) => {
        let row = await findRequest(tx, request.params.token, true);
        const state = linkState(row);
        if (state !== 'sharing') throw notSharing(state);
        const now = new Date();
        const [gps] = await tx
          .select({ n: count() })
          .from(positions)
          .where(and(eq(positions.requestId, row.id), eq(positions.source, 'gps')));
        const first = Number(gps?.n ?? 0) === 0;
        const live = row.liveUntil !== null && row.liveUntil > now;
        if (!first && !live) return ok({ accepted: false, liveUntil: row.liveUntil?.toISOString() ?? null });

        const given = new Date(recordedAt);
        const [position] = await tx
          .insert(positions)
          .values({
            requestId: row.id,
            source: 'gps',
            latitude,
            longitude,
            accuracyMeters: accuracy,
            address: englishAddress(place),
            place,
            // A device clock ahead of ours must not date a position in the future.
            recordedAt: given > now ? now : given,
          })
          .returning();
        if (!position) throw new Error('the position was not stored');
        await publishRequestEvent(tx, {
          userId: row.userId,
          requestId: row.id,
          type: 'position',
          payload: { requestId: row.id, position: positionView(position) },
        });
        if (row.status !== 'gps_tracked') {
          row = await updateRequest(tx, row.id, { status: 'gps_tracked', locatedAt: row.locatedAt ?? now });
          await publishView(tx, row.userId, row.id);
        }
        return ok({ accepted: true, liveUntil: row.liveUntil?.toISOString() ?? null });
      });
    },
  );

  app.post(
    '/api/v1/share/links/:token/live',
    {
      schema: {
        tags,
        summary: 'Keep sharing for 15, 60 or 480 minutes from now',
        params: tokenParams,
        body: liveBody,
        response: { 200: liveResponse, ...responses },
      },
    },
    async (request) =>
      app.db.transaction(async (tx) => {
        let row = await findRequest(tx, request.params.token, true);
        const state = linkState(row);
        if (state !== 'sharing') throw notSharing(state);
        const liveUntil = new Date(Date.now() + request.body.minutes * 60_000);
        row = await updateRequest(tx, row.id, { liveUntil });
        await publishView(tx, row.userId, row.id);
        return ok({ liveUntil: liveUntil.toISOString() });
      }),
  );

  app.post(
    '/api/v1/share/links/:token/live/end',
    {
      schema: {
        tags,
        summary: 'End live sharing before its time, keeping consent (the browser stopped giving positions)',
        description:
          'For the page whose live watch ended early: location permission withdrawn, location turned off, no ' +
          'geolocation. The requester’s live badge goes off at once; what was shared stays, and the recipient ' +
          'may start live sharing again. Only the window named by `liveUntil` ends: a newer one is kept. ' +
          'After Stop sharing or Stop and erase nothing is live: `liveUntil: null`.',
        params: tokenParams,
        body: liveEndBody,
        response: { 200: liveEndResponse, ...responses },
      },
    },
    async (request) =>
      app.db.transaction(async (tx) => {
        let row = await findRequest(tx, request.params.token, true);
        const state = linkState(row);
        if (state === 'stopped' || state === 'withdrawn') return ok({ liveUntil: null });
        if (state !== 'sharing') throw notSharing(state);
        const now = new Date();
        if (row.liveUntil === null || row.liveUntil <= now) return ok({ liveUntil: null });
        // The page names the window it watched: a late call must not end the one the recipient just started.
        if (row.liveUntil.getTime() !== new Date(request.body.liveUntil).getTime()) {
          return ok({ liveUntil: row.liveUntil.toISOString() });
        }
        row = await updateRequest(tx, row.id, { liveUntil: null });
        await publishView(tx, row.userId, row.id);
        return ok({ liveUntil: null });
      }),
  );

  app.post(
    '/api/v1/share/links/:token/stop',
    {
      schema: {
        tags,
        summary: 'Stop sharing at once (what was shared stays visible to the requester)',
        params: tokenParams,
        response: { 200: stateResponse, ...responses },
      },
    },
    async (request) => decide(request.params.token, 'sharing', { consent: 'stopped', liveUntil: null }),
  );

  app.post(
    '/api/v1/share/links/:token/decline',
    {
      schema: {
        tags,
        summary: 'Decline the request (nothing is shared)',
        params: tokenParams,
        response: { 200: stateResponse, ...responses },
      },
    },
    async (request) => decide(request.params.token, 'open', { consent: 'declined' }),
  );

  app.post(
    '/api/v1/share/links/:token/withdraw',
    {
      schema: {
        tags,
        summary: 'Stop and erase: withdraw consent and erase every position shared through this link',
        description:
          'The positions and every live event that carried one are deleted; the requester sees only that ' +
          'consent was withdrawn.',
        params: tokenParams,
        response: { 200: stateResponse, ...responses },
      },
    },
    async (request) =>
      app.db.transaction(async (tx) => {
        let row = await findRequest(tx, request.params.token, true);
        const state = linkState(row);
        if (state === 'withdrawn') return ok({ state });
        if (state !== 'sharing' && state !== 'stopped') throw notSharing(state);
        // A street address cached for one of these positions would outlive them: it goes too.
        const shared = await tx
          .select({ latitude: positions.latitude, longitude: positions.longitude })
          .from(positions)
          .where(eq(positions.requestId, row.id));
        const cacheKeys = shared
          .map((position) => app.geo.reverseGeocoder.cacheKeyOf(position.latitude, position.longitude))
          .filter((key): key is string => key !== null);
        if (cacheKeys.length > 0) await tx.delete(geocodeCache).where(inArray(geocodeCache.key, cacheKeys));
        await tx.delete(positions).where(eq(positions.requestId, row.id));
        // Past events carried the positions (and the request's last one): they go too.
        await tx.delete(requestEvents).where(eq(requestEvents.requestId, row.id));
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
        return ok({ state: linkState(row) });
      }),
  );

  app.post(
    '/api/v1/share/links/:token/opt-out',
    {
      schema: {
        tags,
        summary: 'Opt the number or email this request went to out of every future request',
        description:
          'Stores only a hash of the number or address. A request not yet answered is declined as well. ' +
          'Also through the link of a request its requester has since deleted. ' +
          'A trackable link went to no number or address: 409.',
        params: tokenParams,
        response: { 200: optOutResponse, ...responses },
      },
    },
    async (request) =>
      app.db.transaction(async (tx) => {
        const found = await findRequestOrTombstone(tx, request.params.token, true);
        // A deleted request's tombstone kept the key its request had: the keyed one, or the old plain hash for a
        // request stored before keys (still honoured by every opt-out lookup).
        const targetHash = found.request
          ? found.request.target && optOutKey(hmacSecret, found.request.target)
          : found.tombstone.targetHash;
        const channel = found.request?.channel ?? found.tombstone!.channel;
        if (!targetHash) throw new HttpError(409, say('nothingToOptOut'));
        await recordOptOut(tx, targetHash, channel);
        const row = found.request;
        if (row && linkState(row) === 'open') {
          await updateRequest(tx, row.id, { consent: 'declined', decidedAt: new Date() });
          await publishView(tx, row.userId, row.id);
        }
        return ok({ optedOut: true as const });
      }),
  );

  app.post(
    '/api/v1/share/links/:token/report',
    {
      schema: {
        tags,
        summary: 'Report abuse: stored for the operator with the request and its requester',
        description: 'Also through the link of a request its requester has since deleted.',
        params: tokenParams,
        body: reportBody,
        response: { 200: reportResponse, ...responses },
      },
    },
    async (request) => {
      await throttle.report(request.ip);
      const found = await findRequestOrTombstone(app.db, request.params.token);
      const [report] = await app.db
        .insert(abuseReports)
        .values({
          requestId: found.request?.id ?? null,
          requesterId: found.request?.userId ?? found.tombstone!.requesterId,
          reason: request.body.reason,
          details: request.body.details,
        })
        .returning({ id: abuseReports.id });
      if (!report) throw new Error('the report was not stored');
      return ok({ id: report.id });
    },
  );
};

export default shareRoutes;
