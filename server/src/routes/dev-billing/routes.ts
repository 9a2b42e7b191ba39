import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { expireSubscriptionNow, runRenewalsNow } from '../../billing/dev-billing';
import { errorEnvelope, errorResponses, ok } from '../../lib/envelope';
import { expireBody, expireResponse, runRenewalsBody, runRenewalsResponse } from './schemas';

/**
 * Development and end-to-end tools for subscriptions, registered only when DEV_BILLING_TOOLS=true, behind the dev
 * tools token (routes/dev-tools): end a subscriber's access now, or run the renewal job at a chosen moment.
 */
const devBillingRoutes: FastifyPluginAsyncZod<{ hide: boolean }> = async (app, options) => {
  app.post(
    '/dev/subscriptions/expire',
    {
      schema: {
        hide: options.hide,
        tags: ['development'],
        summary: "Ends an account's subscription now (status expired), as a failed renewal would",
        body: expireBody,
        response: { 200: expireResponse, 404: errorEnvelope, ...errorResponses },
      },
    },
    async (request) => ok(await expireSubscriptionNow(app, request.body.email)),
  );

  app.post(
    '/dev/subscriptions/run-renewals',
    {
      schema: {
        hide: options.hide,
        tags: ['development'],
        summary: 'Runs one pass of the renewal job at a given moment, for every account or one',
        body: runRenewalsBody,
        response: { 200: runRenewalsResponse, 404: errorEnvelope, ...errorResponses },
      },
    },
    async (request) => ok(await runRenewalsNow(app, request.body.at, request.body.email)),
  );
};

export default devBillingRoutes;
