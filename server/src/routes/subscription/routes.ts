import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { refuseUnconfiguredPayments } from '../../plugins/payments-configured';
import { errorEnvelope, errorResponses, ok } from '../../lib/envelope';
import { SerializedAnswers } from '../../lib/serialized-answers';
import { paidAmountResponse } from '../registration/schemas';
import {
  cancelWaitingPaymentBody,
  paymentsResponse,
  renewBody,
  renewResponse,
  subscriptionInfoResponse,
  subscriptionNowResponse,
} from './schemas';
import {
  cancelRenewals,
  paymentHistory,
  renewalTerms,
  renewSubscription,
  subscriptionNow,
} from '../../billing/subscriber-billing';
import { cancelWaitingPayment } from '../../billing/waiting-payments';

/**
 * The signed-in user's subscription: info (on every protected navigation), cancel, renew, payments. HTTP only; the
 * rules are in service.ts.
 */
const subscriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  const authed = { preHandler: app.auth.requireSession };
  const security = [{ token: [] }];
  const subscriptionAnswers = new SerializedAnswers<Awaited<ReturnType<typeof subscriptionNow>>>();

  app.get(
    '/api/v1/personnal/subscribe/info',
    {
      ...authed,
      schema: {
        tags: ['billing'],
        summary: "The signed-in user's subscription (expiredStatus 1 when access has ended)",
        description:
          'Called on every protected navigation: one indexed read after the session lookup, and one more for an ' +
          'ended subscription or one that renews when paid (its waiting payment, if any).',
        security,
        response: { 200: subscriptionNowResponse, 401: errorEnvelope, 404: errorEnvelope, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      // The same object while the subscription's cached answer holds (no payment waiting): the same bytes.
      return subscriptionAnswers.send(reply, await subscriptionNow(app, request.session!.user.id), ok);
    },
  );

  app.get(
    '/api/v1/personnal/subscribe/renewal-terms',
    {
      ...authed,
      schema: {
        tags: ['billing'],
        summary: "What paying again costs: the subscription's own price and currency, and the methods that take it",
        description:
          'For the renewal form of an expired subscriber: a renewal charges the price the subscription was taken ' +
          'at, in its currency, which may differ from the price the pages show now (getPaidAmount).',
        security,
        response: { 200: paidAmountResponse, 401: errorEnvelope, 404: errorEnvelope, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await renewalTerms(app, request.session!.user.id));
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
    async (request) => ok(await cancelRenewals(app, request.session!.user)),
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
          'otherwise), except `method: local` for a subscription that renews when paid: from 7 days before ' +
          'validUntil, its next period then starting at validUntil (409 when that period is already paid or a ' +
          'payment for it is waiting). Sandbox: `card?`. Stripe: `paymentMethodId`; requiresAction: complete 3-D Secure with ' +
          'clientSecret, the webhook settles it. PayPal: a first call answers `orderId` for the PayPal button; ' +
          'then `registerId`, `orderId` and `capture: true` capture it. A decline: registerQuery says ' +
          'sign_failed with the reason.',
        security,
        body: renewBody,
        response: {
          200: renewResponse,
          401: errorEnvelope,
          404: errorEnvelope,
          409: errorEnvelope,
          503: errorEnvelope,
          ...errorResponses,
        },
      },
    },
    async (request) => ok(await renewSubscription(app, request.session!.user, request.body)),
  );

  app.post(
    '/api/v1/personnal/subscribe/waiting-payment/cancel',
    {
      ...authed,
      // Each call may ask Midtrans twice, as subscribe/renew does.
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags: ['billing'],
        summary: "Cancel the subscriber's own waiting QRIS, e-wallet or virtual account renewal, to pay another way",
        description:
          'Expires the order at Midtrans (or ends the sandbox one) and ends the attempt with payment_cancelled, so ' +
          'that subscribe/renew takes another method. Paid at Midtrans meanwhile: settled as paid, as its ' +
          'notification would be (the answer shows the renewed subscription). Cancelled already: the same answer, ' +
          'nothing changed. 404: not a waiting renewal payment of yours (unknown, ended otherwise); 502: Midtrans ' +
          'could not be reached, nothing changed and the payment still waits. Answers subscribe/info.',
        security,
        body: cancelWaitingPaymentBody,
        response: {
          200: subscriptionNowResponse,
          401: errorEnvelope,
          404: errorEnvelope,
          502: errorEnvelope,
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await cancelWaitingPayment(app, request.session!.user, request.body.registerId));
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
      return ok({ items: await paymentHistory(app, request.session!.user.id) });
    },
  );
};

export default subscriptionRoutes;
