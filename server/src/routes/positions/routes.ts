import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelope, errorResponses, HttpError, ok } from '../../lib/envelope';
import { sayCommon } from '../../lib/messages';
import { positionsShownTo } from '../../requests/positions-shown';
import { requestPositionsParams, requestPositionsResponse } from './schemas';

// An 8-hour live share every few seconds stays under this; older points add nothing a map can show.
export const POSITIONS_LIMIT = 2000;

/** The positions shared for one of the signed-in user's requests: the map's marker and trail. */
const positionsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/requests/:id/positions',
    {
      preHandler: app.auth.requireSession,
      schema: {
        tags: ['live'],
        summary: "A request's shared positions (owner only)",
        description:
          `Oldest first, at most the latest ${POSITIONS_LIMIT}. 404 when the request is not the caller's. ` +
          'While the recipient shares, an answer with positions counts as a look on their page.',
        params: requestPositionsParams,
        response: { 200: requestPositionsResponse, 401: errorEnvelope, 404: errorEnvelope, ...errorResponses },
      },
    },
    async (request) => {
      const userId = request.session?.user.id;
      if (!userId) throw new HttpError(401, sayCommon('loginExpired'));
      const items = await positionsShownTo(app.db, userId, request.params.id, POSITIONS_LIMIT);
      if (!items) throw new HttpError(404, sayCommon('requestNotFound'));
      return ok({ items });
    },
  );
};

export default positionsRoutes;
