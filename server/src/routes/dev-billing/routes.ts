import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { findUserByEmail } from '../../auth/users';
import { subscriptionInfo } from '../../billing/subscriptions';
import { errorEnvelope, errorResponses, HttpError, ok } from '../../lib/envelope';
import { sayBilling } from '../../billing/billing-messages';
import { messagesOf } from '../../lib/messages';
import { expireSubscriptionAt } from './data';
import { expireBody, expireResponse, runRenewalsBody, runRenewalsResponse } from './schemas';
import { processorsOf } from '../../payments/processors';

const say = messagesOf('devBilling');

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
    async (request) => {
      const user = await findUserByEmail(app.db, request.body.email);
      if (!user) throw new HttpError(404, say('noAccount'));
      const now = app.billing.clock.now();
      const updated = await expireSubscriptionAt(app.db, user.id, now);
      if (!updated) throw new HttpError(404, sayBilling('noSubscription'));
      return ok(subscriptionInfo(updated, now, processorsOf(app.billing)));
    },
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
    async (request) => {
      const { at, email } = request.body;
      let userId: string | undefined;
      if (email) {
        const user = await findUserByEmail(app.db, email);
        if (!user) throw new HttpError(404, say('noAccount'));
        userId = user.id;
      }
      const report = await app.billing.runRenewals(at ? new Date(at) : undefined, userId);
      app.outbox.kick();
      return ok(report);
    },
  );
};

export default devBillingRoutes;
