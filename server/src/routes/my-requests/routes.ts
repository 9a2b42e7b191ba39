import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import { errorEnvelope, errorResponses, ok } from '../../lib/envelope';
import {
  clearOverviewSession,
  overviewDeps,
  overviewSessionOf,
  setOverviewSession,
} from '../../plugins/overview-session';
import { reporterKey } from '../../plugins/reporter-session';
import {
  actOnRequest,
  consentOverview,
  endOverviewSession,
  eraseEverything,
  noMoreRequests,
  openOverviewSession,
  overviewVoiceNote,
  reportRequest,
  sendOverviewCode,
  stopEverything,
  type RequestAction,
} from '../../sharing/consent-overview';
import { askedRange, sendAudio } from '../voice-notes/audio-http';
import {
  codeBody,
  codeResponse,
  everythingResponse,
  optOutResponse,
  overviewReportBody,
  overviewReportResponse,
  overviewRequestParams,
  overviewResponse,
  overviewStateResponse,
  sessionBody,
  sessionEndResponse,
  sessionResponse,
} from './schemas';

/**
 * The consent overview ("Who can see me", docs/api-v1.md): a code proves an address, a session of at most 15
 * minutes lists the requests sent to it and acts on them. HTTP only; the rules are in sharing/consent-overview.ts.
 */
const myRequestsRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, options) => {
  const { config } = options;
  const deps = overviewDeps(app, config);
  const tags = ['my-requests'];
  const responses = { ...errorResponses, 404: errorEnvelope, 409: errorEnvelope };

  app.post(
    '/api/v1/my-requests/code',
    {
      schema: {
        tags,
        summary: 'Send a 6-digit code to a phone number or email address, to see the requests sent there',
        description:
          'By SMS to a number in the SMS countries (within the daily SMS budget), by email otherwise. Sent and ' +
          'answered alike whether or not any request went to the address. Throttled per address and per network.',
        body: codeBody,
        response: { 200: codeResponse, ...responses },
      },
    },
    async (request) => ok(await sendOverviewCode(deps, request.ip, request.body)),
  );

  app.post(
    '/api/v1/my-requests/session',
    {
      schema: {
        tags,
        summary: 'Enter the code: opens a session of at most 15 minutes for that address',
        description:
          'The session is the `kabari-overview` cookie (HttpOnly, SameSite=Strict, sent only to the overview). ' +
          'A wrong, expired or used code: 400; each wrong one counts.',
        body: sessionBody,
        response: { 200: sessionResponse, ...responses },
      },
    },
    async (request, reply) => {
      const opened = await openOverviewSession(deps, request.ip, request.body);
      setOverviewSession(reply, config.publicUrl, opened.token, opened.expiresAt);
      return ok({ sessionEndsAt: opened.expiresAt.toISOString() });
    },
  );

  app.post(
    '/api/v1/my-requests/session/end',
    {
      schema: {
        tags,
        summary: 'End the session at once (Quick exit, or leaving the page)',
        response: { 200: sessionEndResponse, ...responses },
      },
    },
    async (request, reply) => {
      await endOverviewSession(deps, overviewSessionOf(request));
      clearOverviewSession(reply, config.publicUrl);
      return ok({ ended: true as const });
    },
  );

  app.get(
    '/api/v1/my-requests',
    {
      schema: {
        tags,
        summary: 'The requests sent to the proven address: open ones, and those ended in the last 30 days',
        response: { 200: overviewResponse, ...responses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await consentOverview(deps, overviewSessionOf(request)));
    },
  );

  const actions: Record<string, { action: RequestAction; summary: string }> = {
    decline: { action: 'decline', summary: 'Decline a waiting request' },
    stop: { action: 'stop', summary: 'Stop sharing (what was shared stays with the requester)' },
    withdraw: { action: 'withdraw', summary: 'Stop and erase what was shared through this request' },
  };
  for (const [path, { action, summary }] of Object.entries(actions)) {
    app.post(
      `/api/v1/my-requests/:id/${path}`,
      {
        schema: {
          tags,
          summary,
          description: 'As on the request’s own link; the requester is told as they are for the link.',
          params: overviewRequestParams,
          response: { 200: overviewStateResponse, ...responses },
        },
      },
      async (request) => ok({ state: await actOnRequest(deps, overviewSessionOf(request), request.params.id, action) }),
    );
  }

  app.post(
    '/api/v1/my-requests/:id/report',
    {
      schema: {
        tags,
        summary: 'Report abuse: as on the request’s own link (one report per link and browser)',
        params: overviewRequestParams,
        body: overviewReportBody,
        response: { 200: overviewReportResponse, ...responses },
      },
    },
    async (request, reply) => {
      const reporter = reporterKey(request, reply, app.auth.secrets.hmacSecret, config.publicUrl);
      const report = { ...request.body, ip: request.ip, reporterKey: reporter };
      return ok({ id: await reportRequest(deps, overviewSessionOf(request), request.params.id, report) });
    },
  );

  app.get(
    '/api/v1/my-requests/:id/voice-note',
    {
      schema: {
        tags,
        summary: "The requester's voice note, while the request's link would play it",
        params: overviewRequestParams,
        response: { ...responses, 416: errorEnvelope },
      },
    },
    async (request, reply) =>
      sendAudio(
        reply,
        await overviewVoiceNote(deps, overviewSessionOf(request), request.params.id, askedRange(request)),
      ),
  );

  app.post(
    '/api/v1/my-requests/stop-everything',
    {
      schema: {
        tags,
        summary: 'Stop everything: end every share to this address and decline every waiting request',
        response: { 200: everythingResponse, ...responses },
      },
    },
    async (request) => ok(await stopEverything(deps, overviewSessionOf(request))),
  );

  app.post(
    '/api/v1/my-requests/erase-everything',
    {
      schema: {
        tags,
        summary: 'Erase everything: stop and erase every share to this address and decline every waiting request',
        response: { 200: everythingResponse, ...responses },
      },
    },
    async (request) => ok(await eraseEverything(deps, overviewSessionOf(request))),
  );

  app.post(
    '/api/v1/my-requests/opt-out',
    {
      schema: {
        tags,
        summary: 'No more requests: opt this address out of every future request',
        description: 'Stores only the keyed hash of the address; waiting requests to it are declined.',
        response: { 200: optOutResponse, ...responses },
      },
    },
    async (request) => {
      await noMoreRequests(deps, overviewSessionOf(request));
      return ok({ optedOut: true as const });
    },
  );
};

export default myRequestsRoutes;
