import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelope, errorResponses, HttpError } from '../../lib/envelope';
import { openEventStream } from '../../lib/event-stream';
import { sayCommon } from '../../lib/messages';
import { streamOwnEvents } from '../../live/own-event-stream';
import { liveEventsHeaders, liveEventsQuery, liveEventsStream } from './schemas';

/**
 * The signed-in requester's live events as Server-Sent Events. EventSource cannot set headers, so the session
 * comes from the `token` cookie as well as from Authorization; a reconnecting browser sends Last-Event-ID and gets
 * what it missed.
 */
const liveEventsRoutes: FastifyPluginAsyncZod = async (app) => {
  const hub = app.liveEvents;

  app.get(
    '/api/v1/locate/events',
    {
      preHandler: app.auth.requireSession,
      schema: {
        tags: ['live'],
        summary: "The signed-in user's live events (Server-Sent Events)",
        description:
          'Replays the events after Last-Event-ID (header or `lastEventId` query), then streams new ones. ' +
          'At most 10 streams per user on one instance (429 beyond). A stream ends after about 15 minutes; the ' +
          'browser reconnects and resumes.',
        headers: liveEventsHeaders,
        querystring: liveEventsQuery,
        response: { 200: liveEventsStream, 401: errorEnvelope, ...errorResponses },
      },
    },
    async (request, reply) => {
      const session = request.session;
      if (!session) throw new HttpError(401, sayCommon('loginExpired'));
      const afterId = request.headers['last-event-id'] ?? request.query.lastEventId;
      await streamOwnEvents(hub, { userId: session.user.id, sessionId: session.id, afterId }, () =>
        openEventStream(request, reply),
      );
    },
  );
};

export default liveEventsRoutes;
