import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { paySandboxLocalPayment } from '../../billing/local-payments';
import {
  localDeps,
  signUpResult,
  signUpWithLocal,
  signUpWithPaypal,
  signUpWithSandbox,
  signUpWithStripe,
  type SignUpDeps,
} from '../../billing/registration';
import { refuseUnconfiguredPayments } from '../../plugins/payments-configured';
import type { Config } from '../../config';
import { errorEnvelope, errorResponses, ok } from '../../lib/envelope';
import { requestLocale } from '../../lib/messages';
import {
  localBody,
  localeBody,
  localRegisterResponse,
  paidAmountResponse,
  sandboxPaymentParams,
  sandboxPaymentResponse,
  registerQueryParams,
  registerQueryResponse,
  registerResponse,
  paypalBody,
  paypalRegisterResponse,
  stripeBody,
  stripeRegisterResponse,
  sandboxRegistrationBody,
} from './schemas';

/**
 * getPaidAmount, registerAndSign/v5pay (the sandbox), stripe and paypal, registerQuery/{id}: sign-up with payment,
 * and its result. HTTP only; the rules are in billing/registration.ts.
 */
const registrationRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, options) => {
  const scale = options.config.authThrottleScale;
  const paymentsConfigured = refuseUnconfiguredPayments(app);
  const { db, outbox, auth, billing, log } = app;
  const deps: SignUpDeps = { db, outbox, auth, billing, log, throttleScale: scale };

  app.post(
    '/api/v1/personnal/getPaidAmount',
    {
      schema: {
        tags: ['billing'],
        summary: "The subscription's terms for a locale, as configured by the operator",
        body: localeBody,
        response: { 200: paidAmountResponse, ...errorResponses },
      },
    },
    async (request) => ok(app.billing.terms(request.body.locale)),
  );

  // The path keeps the name the API has always had; the processor behind it is the sandbox.
  app.post(
    '/api/v1/auth/registerAndSign/v5pay',
    {
      config: { rateLimit: { max: 20 * scale, timeWindow: '1 minute' } },
      // Only while the sandbox is the processor: otherwise refused before the card in the body is read.
      onRequest: refuseUnconfiguredPayments(app, { sandboxOnly: true }),
      schema: {
        tags: ['billing'],
        summary: 'Sign up and pay the first day with the sandbox processor (no money moves)',
        description:
          "Stripe's public test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined, " +
          '4000 0000 0000 9995 fails for insufficient funds, 4000 0000 0000 0341 pays the first day but every ' +
          'renewal is declined. A card with a bad format gets 400 and nothing is stored; a declined payment ' +
          'answers the registerId and registerQuery says sign_failed with the reason. Only while the sandbox ' +
          'takes payments (a local trial, or PAYMENTS_SANDBOX=true): otherwise 400, or 503 when no processor ' +
          'is configured at all, before the body is read.',
        body: sandboxRegistrationBody,
        response: { 200: registerResponse, 409: errorEnvelope, 503: errorEnvelope, ...errorResponses },
      },
    },
    async (request) => ok({ registerId: await signUpWithSandbox(deps, request.ip, request.body) }),
  );

  app.post(
    '/api/v1/auth/registerAndSign/stripe',
    {
      config: { rateLimit: { max: 20 * scale, timeWindow: '1 minute' } },
      onRequest: paymentsConfigured,
      schema: {
        tags: ['billing'],
        summary: 'Sign up and pay the first day with Stripe (a PaymentMethod from Elements or the payment request)',
        description:
          'requiresAction: the browser completes 3-D Secure with clientSecret; the webhook then settles the ' +
          'sign-up, which registerQuery reports. A decline: registerQuery says sign_failed with the reason.',
        body: stripeBody,
        response: { 200: stripeRegisterResponse, 409: errorEnvelope, 503: errorEnvelope, ...errorResponses },
      },
    },
    async (request) => ok(await signUpWithStripe(deps, request.ip, request.body)),
  );

  app.post(
    '/api/v1/auth/registerAndSign/paypal',
    {
      config: { rateLimit: { max: 20 * scale, timeWindow: '1 minute' } },
      onRequest: paymentsConfigured,
      schema: {
        tags: ['billing'],
        summary: 'Sign up and pay the first day with PayPal: create the order, then capture it once approved',
        description:
          'Without capture: checks the account, creates the sign-up and a PayPal order for the first-day amount ' +
          '(the PayPal account is vaulted on success so renewals can charge it); answers registerId and orderId ' +
          'for the PayPal button. With capture: true, registerId and the approved orderId: captures the order. A ' +
          'decline: registerQuery says sign_failed with the reason; a pending capture is settled by the webhook.',
        body: paypalBody,
        response: {
          200: paypalRegisterResponse,
          404: errorEnvelope,
          409: errorEnvelope,
          503: errorEnvelope,
          ...errorResponses,
        },
      },
    },
    async (request) => ok(await signUpWithPaypal(deps, request.ip, request.body)),
  );

  app.post(
    '/api/v1/auth/registerAndSign/local',
    {
      config: { rateLimit: { max: 20 * scale, timeWindow: '1 minute' } },
      onRequest: paymentsConfigured,
      schema: {
        tags: ['billing'],
        summary: 'Sign up and pay the first day with QRIS, an e-wallet or a bank virtual account (Midtrans)',
        description:
          'For a price in rupiah (getPaidAmount says methods.local). Checks the account, creates the sign-up and ' +
          'asks Midtrans (or the sandbox in a local trial) for the payment: answers what the page shows while it ' +
          'waits (the QRIS string, the e-wallet deep link, the virtual account number), which expires after 15 ' +
          'minutes (QRIS, e-wallets) or 24 hours (virtual accounts). registerQuery reports it, and how it ended: ' +
          'created once paid, sign_failed with payment_expired, payment_cancelled or payment_denied otherwise, or ' +
          'with payment_amount_mismatch when it was paid with another amount than asked (the money is owed back). ' +
          'The same attemptId answers the same payment.',
        body: localBody,
        response: {
          200: localRegisterResponse,
          409: errorEnvelope,
          502: errorEnvelope,
          503: errorEnvelope,
          ...errorResponses,
        },
      },
    },
    async (request) => ok(await signUpWithLocal(deps, request.ip, request.body)),
  );

  // The local trial's stand-in for Midtrans's notification: registered only while the sandbox takes payments.
  if (billing.sandbox) {
    app.post(
      '/api/v1/personnal/sandboxPayments/:id/pay',
      {
        config: { rateLimit: { max: 30 * scale, timeWindow: '1 minute' } },
        schema: {
          tags: ['billing'],
          summary: 'Sandbox only: marks a waiting sandbox QRIS, e-wallet or virtual account payment paid',
          description:
            "What Midtrans's notification does for a real payment; no money moves. Idempotent (paid already: the " +
            'same answer); past its expiry the payment ends as payment_expired instead. Not a waiting sandbox ' +
            'local payment: 404. Registered only while the sandbox processor takes payments.',
          params: sandboxPaymentParams,
          response: { 200: sandboxPaymentResponse, 404: errorEnvelope, ...errorResponses },
        },
      },
      async (request) => ok(await paySandboxLocalPayment(localDeps(deps), request.params.id, billing.clock.now())),
    );
  }

  app.get(
    '/api/v1/personnal/registerQuery/:id',
    {
      schema: {
        tags: ['billing'],
        summary: 'The state of a sign-up (polled by the register result screen)',
        description:
          'The auth code comes with the first answer that says created (within 30 minutes of the sign-up) and never ' +
          'again: the browser signs in with it at once.',
        params: registerQueryParams,
        response: { 200: registerQueryResponse, 404: errorEnvelope, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await signUpResult(deps, request.params.id, (own) => requestLocale(request, own)));
    },
  );
};

export default registrationRoutes;
