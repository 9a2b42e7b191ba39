import { randomUUID } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cancelledEmail } from '../../billing/emails';
import { toMajor } from '../../billing/money';
import {
  cancelSubscription,
  effectiveStatus,
  failRegistration,
  findSubscription,
  restartKey,
  restartSubscription,
  subscriptionInfo,
} from '../../billing/subscriptions';
import { payments, registrations } from '../../db/schema';
import { errorEnvelope, errorResponses, HttpError, ok } from '../../lib/envelope';
import { authorizeSandboxPayment, CardFormatError } from '../../payments/v5pay';
import { registerResponse } from '../registration/schemas';
import { paymentsResponse, renewBody, subscriptionInfoResponse } from './schemas';

const NO_SUBSCRIPTION = 'This account has no subscription.';

/** The signed-in user's subscription: info (on every protected navigation), cancel, renew, payments. */
const subscriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  const authed = { preHandler: app.auth.requireSession };
  const security = [{ token: [] }];

  app.get(
    '/api/v1/personnal/subscribe/info',
    {
      ...authed,
      schema: {
        tags: ['billing'],
        summary: "The signed-in user's subscription (expiredStatus 1 when access has ended)",
        description: 'Called on every protected navigation: one indexed read after the session lookup.',
        security,
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

  app.post(
    '/api/v1/personnal/subscribe/cancel',
    {
      ...authed,
      schema: {
        tags: ['billing'],
        summary: 'Cancel renewals; access is kept until validUntil (cancelling twice changes nothing)',
        security,
        response: { 200: subscriptionInfoResponse, 401: errorEnvelope, 404: errorEnvelope, ...errorResponses },
      },
    },
    async (request) => {
      const user = request.session!.user;
      const now = app.billing.clock.now();
      const result = await app.db.transaction(async (tx) => {
        const cancelled = await cancelSubscription(tx, user.id, now);
        if (cancelled?.changed) {
          const locale = user.locale === 'id' ? 'id' : 'en';
          await app.mailer.queue(tx, {
            idempotencyKey: `cancelled:${cancelled.subscription.id}:${cancelled.subscription.periodIndex}`,
            to: user.email,
            locale,
            ...cancelledEmail(locale, { displayName: user.displayName, validUntil: cancelled.subscription.validUntil }),
          });
        }
        return cancelled;
      });
      if (!result) throw new HttpError(404, NO_SUBSCRIPTION);
      app.mailer.kick();
      return ok(subscriptionInfo(result.subscription, now));
    },
  );

  app.post(
    '/api/v1/personnal/subscribe/renew',
    {
      ...authed,
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags: ['billing'],
        summary: 'An expired subscriber pays again (sandbox: card, wallet or PayPal); poll registerQuery',
        description:
          'Starts a new full period from now at the subscription amount. Only when access has ended (400 ' +
          'otherwise). A declined card: registerQuery says sign_failed with the reason.',
        security,
        body: renewBody,
        response: { 200: registerResponse, 401: errorEnvelope, 404: errorEnvelope, ...errorResponses },
      },
    },
    async (request) => {
      const user = request.session!.user;
      const body = request.body;
      const locale = body.locale ?? (user.locale === 'id' ? 'id' : 'en');
      const now = app.billing.clock.now();
      const subscription = await findSubscription(app.db, user.id);
      if (!subscription) throw new HttpError(404, NO_SUBSCRIPTION);
      const status = effectiveStatus(subscription, now);
      if (status !== 'expired' && status !== 'unsubscribed') {
        throw new HttpError(400, 'Your subscription is still running: there is nothing to renew yet.');
      }
      if (app.billing.methods[body.method] !== 'v5pay') {
        throw new HttpError(400, 'This payment method is not available here. Please choose another one.');
      }
      const registrationId = randomUUID();
      let authorization;
      try {
        authorization = authorizeSandboxPayment({
          method: body.method,
          card: body.card,
          idempotencyKey: restartKey(registrationId),
          locale,
          now,
        });
      } catch (error) {
        if (error instanceof CardFormatError) throw new HttpError(400, error.message);
        throw error;
      }
      await app.db.transaction(async (tx) => {
        await tx.insert(registrations).values({
          id: registrationId,
          email: user.email,
          displayName: user.displayName,
          phone: user.phone,
          locale,
          provider: 'v5pay',
          userId: user.id,
          subscriptionId: subscription.id,
          // Already signed in: no auth code is handed out for a renewal.
          authCodeIssuedAt: now,
          createdAt: now,
          updatedAt: now,
        });
        const { outcome } = authorization;
        if (outcome.outcome === 'succeeded') {
          await restartSubscription(
            tx,
            {
              subscription,
              registrationId,
              charge: {
                outcome,
                method: body.method,
                customerRef: null,
                paymentMethodRef: authorization.paymentMethodRef,
              },
              user,
              provider: 'v5pay',
            },
            { billing: app.billing.config, mailer: app.mailer, now },
          );
        } else if (outcome.outcome === 'failed') {
          await failRegistration(
            tx,
            registrationId,
            outcome,
            { now, price: { currency: subscription.currency, firstDayAmount: subscription.amount } },
            {
              userId: user.id,
              subscriptionId: subscription.id,
              periodIndex: subscription.periodIndex + 1,
              amount: subscription.amount,
            },
          );
        }
      });
      app.mailer.kick();
      return ok({ registerId: registrationId });
    },
  );

  app.get(
    '/api/v1/personnal/payments',
    {
      ...authed,
      schema: {
        tags: ['billing'],
        summary: "The signed-in user's payments, newest first (brand and last four at most; never card data)",
        security,
        response: { 200: paymentsResponse, 401: errorEnvelope, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const rows = await app.db
        .select()
        .from(payments)
        .where(eq(payments.userId, request.session!.user.id))
        .orderBy(desc(payments.createdAt))
        .limit(500);
      return ok({
        items: rows.map((row) => ({
          id: row.id,
          kind: row.kind as 'first_day' | 'renewal',
          amount: toMajor(row.amount, row.currency),
          currencyCode: row.currency,
          state: row.state as 'pending' | 'succeeded' | 'failed' | 'refunded',
          cardBrand: row.cardBrand,
          cardLast4: row.cardLast4,
          createdAt: row.createdAt.toISOString(),
        })),
      });
    },
  );
};

export default subscriptionRoutes;
