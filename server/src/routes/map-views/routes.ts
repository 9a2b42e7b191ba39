import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelope, errorResponses, HttpError, ok } from '../../lib/envelope';
import { sayCommon } from '../../lib/messages';
import { mapOpen } from '../../sharing/map-views';
import { mapViewBody, mapViewParams, mapViewResponse } from './schemas';

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
      return ok(await mapOpen(app.db, userId, request.params.id, request.body.viewId));
    },
  );
};

export default mapViewRoutes;
