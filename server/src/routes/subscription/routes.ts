import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { findSubscription, subscriptionInfo } from '../../billing/subscriptions';
import { errorEnvelope, errorResponses, HttpError, ok } from '../../lib/envelope';
import { subscriptionInfoResponse } from './schemas';

const NO_SUBSCRIPTION = 'This account has no subscription.';

/** The signed-in user's subscription: info (on every protected navigation), cancel, renew, payments. */
const subscriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/personnal/subscribe/info',
    {
      preHandler: app.auth.requireSession,
      schema: {
        tags: ['billing'],
        summary: "The signed-in user's subscription (expiredStatus 1 when access has ended)",
        description: 'Called on every protected navigation: one indexed read after the session lookup.',
        security: [{ token: [] }],
        response: { 200: subscriptionInfoResponse, 401: errorEnvelope, 404: errorEnvelope, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const subscription = await findSubscription(app.db, request.session!.user.id);
      if (!subscription) throw new HttpError(404, NO_SUBSCRIPTION);
      return ok(subscriptionInfo(subscription, app.billing.clock.now()));
    },
  );
};

export default subscriptionRoutes;
