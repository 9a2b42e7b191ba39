import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { countAttempt } from '../../auth/throttle';
import { errorEnvelope, errorResponses, HttpError, ok } from '../../lib/envelope';
import { sayCommon } from '../../lib/messages';
import { throwWhenLimited } from '../../lib/throttle-answer';
import { mapViewBody, mapViewParams, mapViewResponse } from './schemas';
import { recordMapView } from './service';

// An open map calls once a minute; a few maps opened and closed on top of that stay well under this.
const VIEWS_PER_USER = { limit: 60, windowSeconds: 10 * 60 };

/** The requester has a request's map open: recorded for the recipient to see who looked (owner only). */
const mapViewRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/v1/requests/:id/views',
    {
      preHandler: app.auth.requireSession,
      schema: {
        tags: ['live'],
        summary: "The signed-in user has a request's map open (owner only)",
        description:
          'Called when the map opens and every minute while it stays open (with the `viewId` of the answer). ' +
          'Recorded only while the recipient shares; the recipient’s page shows when the requester last looked ' +
          'and how often today. 404 when the request is not the caller’s.',
        params: mapViewParams,
        body: mapViewBody,
        response: { 200: mapViewResponse, 401: errorEnvelope, 404: errorEnvelope, ...errorResponses },
      },
    },
    async (request) => {
      const userId = request.session?.user.id;
      if (!userId) throw new HttpError(401, sayCommon('loginExpired'));
      throwWhenLimited(
        await countAttempt(app.db, `map-view:user:${userId}`, VIEWS_PER_USER),
        sayCommon,
        'tooManyRequests',
      );
      const recorded = await recordMapView(app.db, userId, request.params.id, request.body.viewId);
      // Someone else's request looks exactly like one that does not exist.
      if (!recorded) throw new HttpError(404, sayCommon('requestNotFound'));
      return ok(recorded);
    },
  );
};

export default mapViewRoutes;
