import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requestRefund } from '../../billing/refund-requests';
import type { Config } from '../../config';
import { errorResponses, ok } from '../../lib/envelope';
import { refundBody, refundResponse } from './schemas';

/** /unsubscribe-and-refund: cancel and ask for a refund; stored for the operator, confirmed by email. */
const refundRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, options) => {
  const { operatorEmail, authThrottleScale } = options.config;

  app.post(
    '/api/v1/refunds',
    {
      config: { rateLimit: { max: 10 * authThrottleScale, timeWindow: '1 minute' } },
      schema: {
        tags: ['billing'],
        summary: 'Cancel the subscription and ask for a refund (signed in as the email, or with a type-2 code)',
        description:
          'The subscription stops renewing (access kept until validUntil); the request is stored for the operator, ' +
          'who is emailed, and the requester gets a confirmation. Without a session for this email, the code ' +
          'emailed by sendCode type 2 proves the address.',
        body: refundBody,
        response: { 200: refundResponse, ...errorResponses },
      },
    },
    async (request) => {
      const session = await app.auth.sessionOf(request);
      const deps = {
        db: app.db,
        outbox: app.outbox,
        hmacSecret: app.auth.secrets.hmacSecret,
        clock: app.billing.clock,
        throttleScale: authThrottleScale,
      };
      const id = await requestRefund(deps, request.ip, {
        ...request.body,
        signedInAsEmail: session?.user.email === request.body.email,
        operatorAddress: operatorEmail,
      });
      return ok({ id });
    },
  );
};

export default refundRoutes;
