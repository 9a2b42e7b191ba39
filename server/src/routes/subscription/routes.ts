import { randomUUID } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cancelledEmail } from '../../billing/emails';
import { openPaypalOrder } from '../../billing/paypal-orders';
import { refuseUnconfiguredPayments } from '../../billing/payments-configured';
import { toMajor } from '../../billing/money';
import { bookRestart, type RestartResult } from '../../billing/restarts';
import { restartKey } from '../../billing/sign-ups';
import { cancelSubscription, effectiveStatus, findSubscription, subscriptionInfo } from '../../billing/subscriptions';
import { payments, registrations } from '../../db/schema/billing';
import { sayBilling as say } from '../../billing/billing-messages';
import { errorEnvelope, errorResponses, HttpError, ok } from '../../lib/envelope';
import { authorizeSandboxPayment, CardFormatError } from '../../payments/sandbox-processor';
import { paymentsResponse, renewBody, renewResponse, subscriptionInfoResponse } from './schemas';

/** The signed-in user's subscription: info (on every protected navigation), cancel, renew, payments. */
const subscriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  const authed = { preHandler: app.auth.requireSession };
  const security = [{ token: [] }];

  /**
   * After the booking committed: a renewal by hand that found the subscription renewed meanwhile is owed back
   * (marked in the booking transaction), so it is refunded now; a provider failure is retried by the renewal
   * reconciliation passes. registerQuery tells the subscriber (duplicate_payment), and the email follows.
   */
  async function refundIfPaidTwice(booked: RestartResult | null, registrationId: string) {
    app.outbox.kick();
    if (!booked || booked.restarted) return;
    await app.billing.refundOwedNow(restartKey(registrationId));
  }

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
      const userId = request.session!.user.id;
      // The expiry is worked out from the clock at each call, so a cached row is as good as a fresh one.
      const subscription = await app.auth.cache.get(
        `subscription:${userId}`,
        () => findSubscription(app.db, userId),
        () => userId,
      );
      if (!subscription) throw new HttpError(404, say('noSubscription'));
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
          await app.outbox.queue(tx, {
            idempotencyKey: `cancelled:${cancelled.subscription.id}:${cancelled.subscription.periodIndex}`,
            to: user.email,
            locale,
            ...cancelledEmail(locale, { displayName: user.displayName, validUntil: cancelled.subscription.validUntil }),
          });
        }
        return cancelled;
      });
      if (!result) throw new HttpError(404, say('noSubscription'));
      app.outbox.kick();
      return ok(subscriptionInfo(result.subscription, now));
    },
  );

  app.post(
    '/api/v1/personnal/subscribe/renew',
    {
      ...authed,
      // No processor: refused before the body (which may hold a card) is read.
      onRequest: refuseUnconfiguredPayments(app),
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags: ['billing'],
        summary: 'An expired subscriber pays again (sandbox, Stripe or PayPal, as configured); poll registerQuery',
        description:
          'Starts a new full period from now at the subscription amount. Only when access has ended (400 ' +
          'otherwise). Sandbox: `card?`. Stripe: `paymentMethodId`; requiresAction: complete 3-D Secure with ' +
          'clientSecret, the webhook settles it. PayPal: a first call answers `orderId` for the PayPal button; ' +
          'then `registerId`, `orderId` and `capture: true` capture it. A decline: registerQuery says ' +
          'sign_failed with the reason.',
        security,
        body: renewBody,
        response: { 200: renewResponse, 401: errorEnvelope, 404: errorEnvelope, 503: errorEnvelope, ...errorResponses },
      },
    },
    async (request) => {
      const user = request.session!.user;
      const body = request.body;
      const locale = body.locale ?? (user.locale === 'id' ? 'id' : 'en');
      const now = app.billing.clock.now();
      const subscription = await findSubscription(app.db, user.id);
      if (!subscription) throw new HttpError(404, say('noSubscription'));
      const provider = app.billing.methods[body.method];
      if (!provider) {
        throw new HttpError(400, say('methodUnavailable'));
      }

      // PayPal's second step: capture the order the subscriber approved for this attempt.
      if (provider === 'paypal' && body.capture) {
        const paypal = app.billing.paypal!;
        if (!body.registerId || !body.orderId) {
          throw new HttpError(400, say('paypalOrderMissing'));
        }
        const [attempt] = await app.db.select().from(registrations).where(eq(registrations.id, body.registerId));
        if (
          !attempt ||
          attempt.userId !== user.id ||
          attempt.provider !== 'paypal' ||
          attempt.providerRef !== body.orderId
        ) {
          throw new HttpError(404, say('renewalNotFound'));
        }
        if (attempt.state === 'querying') {
          const capture = await paypal.captureOrder(body.orderId, `capture:${attempt.id}`);
          const booked = await app.db.transaction((tx) =>
            bookRestart(
              tx,
              {
                registrationId: attempt.id,
                user,
                subscription,
                provider: 'paypal',
                answer: {
                  outcome: capture.outcome,
                  method: 'paypal',
                  customerRef: capture.customerRef,
                  paymentMethodRef: capture.paymentMethodRef,
                },
              },
              { billing: app.billing.config, outbox: app.outbox, now },
            ),
          );
          await refundIfPaidTwice(booked, attempt.id);
        }
        return ok({ registerId: attempt.id, orderId: body.orderId });
      }

      const status = effectiveStatus(subscription, now);
      if (status !== 'expired' && status !== 'unsubscribed') {
        throw new HttpError(400, say('stillRunning'));
      }
      const registrationId = randomUUID();
      const attemptRow = {
        id: registrationId,
        email: user.email,
        displayName: user.displayName,
        phone: user.phone,
        locale,
        provider,
        userId: user.id,
        subscriptionId: subscription.id,
        // Already signed in: no auth code is handed out for a renewal.
        authCodeIssuedAt: now,
        createdAt: now,
        updatedAt: now,
      };

      if (provider === 'stripe') {
        const stripe = app.billing.stripe!;
        if (body.method === 'paypal' || !body.paymentMethodId || !/^pm_\w+$/.test(body.paymentMethodId)) {
          throw new HttpError(400, say('stripeMethodMissing'));
        }
        await app.db.insert(registrations).values(attemptRow);
        const charge = await stripe.chargeFirst({
          idempotencyKey: restartKey(registrationId),
          registrationId,
          email: user.email,
          name: user.displayName,
          amount: subscription.amount,
          currency: subscription.currency,
          paymentMethodId: body.paymentMethodId,
          kind: 'restart',
          customerRef: subscription.provider === 'stripe' ? subscription.providerCustomerRef : null,
        });
        const booked = await app.db.transaction(async (tx) => {
          if (charge.outcome.outcome === 'pending') {
            await tx
              .update(registrations)
              .set({ providerRef: charge.outcome.providerRef, updatedAt: now })
              .where(eq(registrations.id, registrationId));
          }
          return bookRestart(
            tx,
            {
              registrationId,
              user,
              subscription,
              provider: 'stripe',
              answer: {
                outcome: charge.outcome,
                method: body.method,
                customerRef: charge.customerRef,
                paymentMethodRef: charge.paymentMethodRef,
              },
            },
            { billing: app.billing.config, outbox: app.outbox, now },
          );
        });
        await refundIfPaidTwice(booked, registrationId);
        return ok({
          registerId: registrationId,
          requiresAction: charge.requiresAction,
          ...(charge.clientSecret ? { clientSecret: charge.clientSecret } : {}),
        });
      }

      if (provider === 'paypal') {
        const paypal = app.billing.paypal!;
        await app.db.insert(registrations).values(attemptRow);
        const orderId = await openPaypalOrder(
          { db: app.db, paypal, log: request.log },
          {
            registrationId,
            paymentKey: restartKey(registrationId),
            amount: subscription.amount,
            currency: subscription.currency,
            locale,
            description: 'Kabari subscription, renewed after expiry',
            now,
          },
        );
        return ok({ registerId: registrationId, orderId });
      }

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
        if (error instanceof CardFormatError) throw new HttpError(400, error.texts);
        throw error;
      }
      const booked = await app.db.transaction(async (tx) => {
        await tx.insert(registrations).values(attemptRow);
        return bookRestart(
          tx,
          {
            registrationId,
            user,
            subscription,
            provider: 'sandbox',
            answer: {
              outcome: authorization.outcome,
              method: body.method,
              customerRef: null,
              paymentMethodRef: authorization.paymentMethodRef,
            },
          },
          { billing: app.billing.config, outbox: app.outbox, now },
        );
      });
      await refundIfPaidTwice(booked, registrationId);
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
          state: row.state as 'pending' | 'succeeded' | 'failed' | 'refunded' | 'partly_refunded' | 'disputed',
          refundedAmount: toMajor(row.refundedAmount, row.currency),
          cardBrand: row.cardBrand,
          cardLast4: row.cardLast4,
          createdAt: row.createdAt.toISOString(),
        })),
      });
    },
  );
};

export default subscriptionRoutes;
