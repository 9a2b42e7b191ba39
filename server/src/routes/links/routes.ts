import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import { locationRequests } from '../../db/schema';
import { errorEnvelope, errorResponses, HttpError, ok } from '../../lib/envelope';
import { linkBaseUrl } from '../../requests/base-url';
import { createLinkRequest } from '../../requests/create-request';
import { findOwnedRequest, publishRequestChange } from '../../requests/location-request-view';
import { requireSubscriber, sendAnswer } from '../requests/routes';
import { limitedResponse, requestIdParams, requestResponse } from '../requests/schemas';
import { createLinkBody } from './schemas';

const signedInResponses = { ...errorResponses, 401: errorEnvelope };

/** Trackable links (issue 4): a long random token the requester shares; cancellable; one new link every 3 hours. */
const linkRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, options) => {
  const { config } = options;
  const security = [{ token: [] }];

  app.post(
    '/api/v1/links',
    {
      preHandler: app.auth.requireSession,
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags: ['requests'],
        summary: 'Create a trackable link (subscribers only; one new link every 3 hours)',
        description: `The link expires after ${config.requests.linkExpiryDays} days (LINK_EXPIRY_DAYS) unless cancelled.`,
        security,
        body: createLinkBody,
        response: { 200: requestResponse, ...signedInResponses, 403: errorEnvelope, 429: limitedResponse },
      },
    },
    async (request, reply) => {
      await requireSubscriber(app.db, request);
      const user = request.session!.user;
      const outcome = await createLinkRequest(app, {
        title: request.body.title,
        locale: request.body.locale,
        requester: { userId: user.id, displayName: user.displayName },
        baseUrl: linkBaseUrl(config, request),
        expiryDays: config.requests.linkExpiryDays,
      });
      return sendAnswer(reply, outcome, 'link');
    },
  );

  app.post(
    '/api/v1/links/:id/cancel',
    {
      preHandler: app.auth.requireSession,
      schema: {
        tags: ['requests'],
        summary: 'Cancel one of your requests: its link stops working and any sharing ends',
        description: 'Works for links and for SMS or email requests; a request already declined or withdrawn stays so.',
        security,
        params: requestIdParams,
        response: { 200: requestResponse, ...signedInResponses, 404: errorEnvelope },
      },
    },
    async (request) => {
      const userId = request.session!.user.id;
      const baseUrl = linkBaseUrl(config, request);
      const view = await app.db.transaction(async (tx) => {
        const cancelled = await tx
          .update(locationRequests)
          .set({ consent: 'cancelled', cancelledAt: new Date(), liveUntil: null })
          .where(
            and(
              eq(locationRequests.id, request.params.id),
              eq(locationRequests.userId, userId),
              inArray(locationRequests.consent, ['none', 'sharing', 'stopped']),
            ),
          )
          .returning({ id: locationRequests.id });
        if (cancelled.length > 0) await publishRequestChange(tx, userId, request.params.id, baseUrl);
        // Not changed: another user's request (404, like a missing one), or one already ended (answered as is).
        return findOwnedRequest(tx, userId, request.params.id, baseUrl);
      });
      if (!view) throw new HttpError(404, 'Request not found');
      return ok({ request: view });
    },
  );
};

export default linkRoutes;
