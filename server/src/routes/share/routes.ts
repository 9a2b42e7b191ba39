import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import { DBIP_ATTRIBUTION } from '../../geo/ip-location';
import { errorEnvelope, errorResponses, ok } from '../../lib/envelope';
import { openEventStream } from '../../lib/event-stream';
import { mapViewsSeenResponse } from '../map-views/schemas';
import {
  consentResponse,
  linkResponse,
  liveBody,
  liveEndBody,
  liveEndResponse,
  liveHeardBody,
  liveResponse,
  linkEventsStream,
  optOutResponse,
  positionBody,
  positionResponse,
  reportBody,
  reportResponse,
  stateResponse,
  tokenParams,
} from './schemas';
import {
  addBrowserPosition,
  consentToShare,
  declineRequest,
  endLiveSharing,
  heardFromLivePage,
  listenToLink,
  mapViewsOfLink,
  openLink,
  optOutOfRequests,
  reportAbuse,
  REPORTS_PER_LINK,
  startLiveSharing,
  stopSharing,
  withdrawConsent,
} from '../../sharing/link-consent';
import { LinkRequesters } from '../../sharing/link-requesters';
import { shareThrottle } from '../../sharing/share-throttle';
import { reporterKey } from '../../plugins/reporter-session';
import shareVoiceRoutes from './voice-routes';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A share route that counts the use of its link itself, rather than in the routes' own hook. */
    countsItsLinkUse?: true;
  }
}

/**
 * The recipient's consent routes (docs/api-v1.md): HTTP only. The link's token is the only key, every use of it is
 * throttled; the rules are in sharing/link-consent.ts.
 */
const shareRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, options) => {
  const throttle = shareThrottle(app.db, app.auth.secrets.hmacSecret, options.config.authThrottleScale);
  // The requester is told by email what the recipient did (requests/requester-notices.ts).
  const notices = { outbox: app.outbox, publicUrl: options.config.publicUrl };

  app.addHook('preHandler', async (request) => {
    if (request.routeOptions.config.countsItsLinkUse) return;
    const { token } = request.params as { token: string };
    await throttle.link(request.ip, token);
  });

  // What the recipient does changes their requester's history: this instance forgets the requester's cached pages
  // before answering, so a read after this answer never shows the page from before it (every other instance forgets
  // them on the database's notice). A failed lookup leaves it to that notice.
  const requesters = new LinkRequesters(app.db);
  app.addHook('onSend', (request, _reply, payload, done) => {
    const { token } = request.params as { token?: string };
    if (request.method === 'GET' || request.method === 'HEAD' || !token) {
      done(null, payload);
      return;
    }
    requesters.of(token).then(
      (userId) => {
        if (userId !== undefined) app.requestLists.forgetUser(userId);
        done(null, payload);
      },
      (error: unknown) => {
        request.log.warn({ err: error }, 'Could not find the requester of a link to forget their cached history');
        done(null, payload);
      },
    );
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

  app.get(
    '/api/v1/share/links/:token/events',
    {
      schema: {
        tags,
        summary: 'Changes to the request, for the recipient’s open page (Server-Sent Events)',
        description:
          'A `changed` event each time the request changes other than by a position (an answer from another tab, ' +
          'its end by the requester, a suspension): the page asks for the link again. Carries nothing else. ' +
          'Only while the link is open or shared through (409 after). At most 5 streams per request on one ' +
          'instance (429 beyond); a stream ends after about 15 minutes.',
        params: tokenParams,
        response: { 200: linkEventsStream, ...responses },
      },
    },
    async (request, reply) =>
      listenToLink(app.db, app.liveEvents, request.params.token, () => openEventStream(request, reply)),
  );

  app.get(
    '/api/v1/share/links/:token/views',
    {
      schema: {
        tags,
        summary: 'When the requester last looked at the shared position, and how often in the last day',
        description:
          'While the recipient shares: the last moment the requester had the map open, and each time they opened ' +
          'it in the last 24 hours (409 in any other state). Erased with everything else by Stop and erase.',
        params: tokenParams,
        response: { 200: mapViewsSeenResponse, ...responses },
      },
    },
    async (request) => ok(await mapViewsOfLink(app.db, request.params.token)),
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
      const approximate = await consentToShare(app.db, notices, app.geo.lookupIp, request.params.token, request.ip);
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
      // A live share's every position: counted with its own statement, one round trip and one commit for both.
      config: { countsItsLinkUse: true },
    },
    async (request) => {
      const { requesterId, ...answer } = await addBrowserPosition(
        app.db,
        app.geo.reverseGeocoder,
        { throttle, ip: request.ip },
        request.params.token,
        request.body,
      );
      // Known from the statement that stored the position: the answer's hook below need not ask the database.
      if (requesterId !== undefined) requesters.know(request.params.token, requesterId);
      return ok(answer);
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
    async (request) => ok({ liveUntil: await startLiveSharing(app.db, request.params.token, request.body.minutes) }),
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
      ok({
        liveUntil: await endLiveSharing(app.db, request.params.token, request.body.liveUntil, request.body.reason),
      }),
  );

  app.post(
    '/api/v1/share/links/:token/live/heard',
    {
      schema: {
        tags,
        summary: 'The live page is still open: its call once a minute while live sharing runs',
        description:
          'A window whose page is not heard from for 2 minutes (closed, or the phone asleep) ends, and the requester ' +
          'sees why. Answers the window open now: null when none is (the page then stops watching).',
        params: tokenParams,
        body: liveHeardBody,
        response: { 200: liveEndResponse, ...responses },
      },
    },
    async (request) => ok({ liveUntil: await heardFromLivePage(app.db, request.params.token, request.body.liveUntil) }),
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
    async (request) => ok({ state: await stopSharing(app.db, notices, request.params.token) }),
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
    async (request) => ok({ state: await declineRequest(app.db, notices, request.params.token) }),
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
      ok({ state: await withdrawConsent(app.db, notices, app.geo.reverseGeocoder, request.params.token) }),
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
    async (request) => {
      await optOutOfRequests(app.db, app.auth.secrets.hmacSecret, request.params.token);
      return ok({ optedOut: true as const });
    },
  );

  app.post(
    '/api/v1/share/links/:token/report',
    {
      schema: {
        tags,
        summary: 'Report abuse: stored for the operator with the request and its requester',
        description:
          'Also through the link of a request its requester has since deleted. One report per link and browser ' +
          '(the `kabari-reporter` session cookie, given with the first report): the same browser reporting again ' +
          `gets the same id and stores nothing. At most ${REPORTS_PER_LINK} reports per link (409 after that).`,
        params: tokenParams,
        body: reportBody,
        response: { 200: reportResponse, ...responses },
      },
    },
    async (request, reply) => {
      const reporter = reporterKey(request, reply, app.auth.secrets.hmacSecret, options.config.publicUrl);
      return ok({ id: await reportAbuse(app.db, throttle, request.ip, request.params.token, reporter, request.body) });
    },
  );

  await app.register(shareVoiceRoutes);
};

export default shareRoutes;
