import { and, desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { locationRequests, positions } from '../../db/schema/location-requests';
import { errorEnvelope, errorResponses, HttpError, ok } from '../../lib/envelope';
import { toPositionView } from '../../requests/location-request-view';
import { sayCommon } from '../../lib/messages';
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
        description: `Oldest first, at most the latest ${POSITIONS_LIMIT}. 404 when the request is not the caller's.`,
        params: requestPositionsParams,
        response: { 200: requestPositionsResponse, 401: errorEnvelope, 404: errorEnvelope, ...errorResponses },
      },
    },
    async (request) => {
      const userId = request.session?.user.id;
      if (!userId) throw new HttpError(401, sayCommon('loginExpired'));
      const [owned] = await app.db
        .select({ id: locationRequests.id })
        .from(locationRequests)
        .where(and(eq(locationRequests.id, request.params.id), eq(locationRequests.userId, userId)));
      // Someone else's request looks exactly like one that does not exist.
      if (!owned) throw new HttpError(404, sayCommon('requestNotFound'));
      const rows = await app.db
        .select()
        .from(positions)
        .where(eq(positions.requestId, owned.id))
        .orderBy(desc(positions.recordedAt), desc(positions.id))
        .limit(POSITIONS_LIMIT);
      return ok({ items: rows.reverse().map(toPositionView) });
    },
  );
};

export default positionsRoutes;
