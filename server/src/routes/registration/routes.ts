import type { PaymentProvider } from '../../db/column-values';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { hashPassword, passwordProblem } from '../../auth/passwords';
import { countAttempt, throttleKey, type ThrottleRule } from '../../auth/throttle';
import { findUserByEmail } from '../../auth/users';
import { issueAuthCode } from '../../auth/verification-codes';
import type { Locale } from '../../lib/messages';
import { openPaypalOrder } from '../../billing/paypal-orders';
import { refuseUnconfiguredPayments } from '../../billing/payments-configured';
import { bookFirstDay, claimAuthCodeHandout, firstDayKey } from '../../billing/sign-ups';
import { findSubscription } from '../../billing/subscriptions';
import type { Config } from '../../config';
import { registrations } from '../../db/schema/billing';
import { errorEnvelope, errorResponses, HttpError, ok } from '../../lib/envelope';
import { requestLocale, sayCommon } from '../../lib/messages';
import { failureText, sayBilling as say } from '../../billing/billing-messages';
import { authorizeSandboxPayment, CardFormatError } from '../../payments/sandbox-processor';
import {
  CURRENT_TERMS_VERSION,
  localeBody,
  paidAmountResponse,
  registerQueryParams,
  registerQueryResponse,
  registerResponse,
  paypalBody,
  paypalRegisterResponse,
  stripeBody,
  stripeRegisterResponse,
  sandboxRegistrationBody,
} from './schemas';
import { throwWhenLimited } from '../../lib/throttle-answer';

const REGISTER_PER_IP = (scale: number): ThrottleRule => ({ limit: 60 * scale, windowSeconds: 60 * 60 });

/** getPaidAmount, registerAndSign/v5pay (the sandbox), registerQuery/{id}: sign-up with payment, and its result. */
const registrationRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, options) => {
  const scale = options.config.authThrottleScale;
  const paymentsConfigured = refuseUnconfiguredPayments(app);

  /** Shared by every registerAndSign route: throttle, email free, password checked and hashed. */
  async function prepareAccount(
    ip: string,
    body: { email: string; locale: Locale; password?: string | undefined },
  ): Promise<{ passwordHash: string | null }> {
    const limit = await countAttempt(
      app.db,
      throttleKey(app.auth.secrets.hmacSecret, 'register:ip', ip),
      REGISTER_PER_IP(scale),
    );
    throwWhenLimited(limit, say, 'signUpsFromNetwork');
    if (await findUserByEmail(app.db, body.email)) throw new HttpError(409, sayCommon('emailInUse'));
    if (!body.password) return { passwordHash: null };
    const password = app.auth.passwordCipher.decrypt(body.password);
    const problem = passwordProblem(password);
    if (problem) throw new HttpError(400, problem);
    return { passwordHash: await hashPassword(password) };
  }

  /**
   * The email was taken while this sign-up paid: bookFirstDay recorded the first charge as owed back in its own
   * transaction. It is given back now if the provider answers (else the sign-up reconciliation retries it), and
   * the visitor is told the email is in use either way; a provider's error never reaches them.
   */
  async function refuseTakenEmail(registrationId: string): Promise<never> {
    await app.billing
      .refundOwedNow(firstDayKey(registrationId))
      .catch((error: unknown) =>
        app.log.error(
          { message: (error as Error).message },
          'A refund owed was not tried now; the reconciliation will',
        ),
      );
    throw new HttpError(409, sayCommon('emailInUse'));
  }

  /** The sign-up attempt's row: the account fields and the consent given in the form, when it was given. */
  function registrationRow(
    id: string,
    body: { email: string; displayName: string; phone?: string | undefined; locale: Locale; termsVersion?: string },
    provider: PaymentProvider,
    passwordHash: string | null,
    now: Date,
  ) {
    return {
      id,
      email: body.email,
      displayName: body.displayName,
      phone: body.phone ?? null,
      locale: body.locale,
      provider,
      passwordHash,
      // The schema refuses a body without both confirmations, so they were given with this request.
      ageConfirmedAt: now,
      termsAcceptedAt: now,
      termsVersion: body.termsVersion ?? CURRENT_TERMS_VERSION,
      createdAt: now,
      updatedAt: now,
    };
  }

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
    async (request) => {
      const body = request.body;
      if (app.billing.methods[body.method] !== 'sandbox') throw new HttpError(400, say('methodUnavailable'));
      const { passwordHash } = await prepareAccount(request.ip, body);
      const now = app.billing.clock.now();
      const registrationId = randomUUID();

      let authorization;
      try {
        authorization = authorizeSandboxPayment({
          method: body.method,
          card: body.card,
          idempotencyKey: firstDayKey(registrationId),
          locale: body.locale,
          now,
        });
      } catch (error) {
        if (error instanceof CardFormatError) throw new HttpError(400, error.texts);
        throw error;
      }

      const result = await app.db.transaction(async (tx) => {
        await tx.insert(registrations).values(registrationRow(registrationId, body, 'sandbox', passwordHash, now));
        return bookFirstDay(
          tx,
          {
            registrationId,
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
      if (result && !result.completed && result.reason === 'email_in_use') await refuseTakenEmail(registrationId);
      app.outbox.kick();
      return ok({ registerId: registrationId });
    },
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
    async (request) => {
      const body = request.body;
      const stripe = app.billing.stripe;
      if (!stripe || app.billing.methods[body.method] !== 'stripe') throw new HttpError(400, say('methodUnavailable'));
      const { passwordHash } = await prepareAccount(request.ip, body);
      const now = app.billing.clock.now();
      const registrationId = randomUUID();
      const price = app.billing.config.prices[body.locale];
      await app.db.insert(registrations).values(registrationRow(registrationId, body, 'stripe', passwordHash, now));
      const charge = await stripe.chargeFirst({
        idempotencyKey: firstDayKey(registrationId),
        registrationId,
        email: body.email,
        name: body.displayName,
        amount: price.firstDayAmount,
        currency: price.currency,
        paymentMethodId: body.paymentMethodId,
      });
      const result = await app.db.transaction((tx) =>
        bookFirstDay(
          tx,
          {
            registrationId,
            provider: 'stripe',
            answer: {
              outcome: charge.outcome,
              method: body.method,
              customerRef: charge.customerRef,
              paymentMethodRef: charge.paymentMethodRef,
            },
          },
          { billing: app.billing.config, outbox: app.outbox, now },
        ),
      );
      if (result && !result.completed && result.reason === 'email_in_use') await refuseTakenEmail(registrationId);
      app.outbox.kick();
      return ok({
        registerId: registrationId,
        requiresAction: charge.requiresAction,
        ...(charge.clientSecret ? { clientSecret: charge.clientSecret } : {}),
      });
    },
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
    async (request) => {
      const body = request.body;
      const paypal = app.billing.paypal;
      if (!paypal || app.billing.methods.paypal !== 'paypal') throw new HttpError(400, say('methodUnavailable'));
      const now = app.billing.clock.now();

      if (!body.capture) {
        const { passwordHash } = await prepareAccount(request.ip, body);
        const registrationId = randomUUID();
        const price = app.billing.config.prices[body.locale];
        await app.db.insert(registrations).values(registrationRow(registrationId, body, 'paypal', passwordHash, now));
        const orderId = await openPaypalOrder(
          { db: app.db, paypal, log: request.log },
          {
            registrationId,
            paymentKey: firstDayKey(registrationId),
            amount: price.firstDayAmount,
            currency: price.currency,
            locale: body.locale,
            description: 'Kabari subscription, first day',
            now,
          },
        );
        return ok({ registerId: registrationId, orderId });
      }

      if (!body.registerId || !body.orderId) throw new HttpError(400, say('paypalOrderMissing'));
      const registrationId = body.registerId;
      const orderId = body.orderId;
      const [registration] = await app.db.select().from(registrations).where(eq(registrations.id, registrationId));
      // The order must be the one made for this sign-up, by the same visitor (their email).
      if (
        !registration ||
        registration.provider !== 'paypal' ||
        registration.providerRef !== orderId ||
        registration.email !== body.email
      ) {
        throw new HttpError(404, say('signUpNotFound'));
      }
      // Captured already (a retried approval): registerQuery tells how it ended.
      if (registration.state !== 'querying') return ok({ registerId: registrationId, orderId });
      const capture = await paypal.captureOrder(orderId, `capture:${registrationId}`);
      const { outcome } = capture;
      const result = await app.db.transaction((tx) =>
        bookFirstDay(
          tx,
          {
            registrationId,
            provider: 'paypal',
            answer: {
              outcome,
              method: 'paypal',
              customerRef: capture.customerRef,
              paymentMethodRef: capture.paymentMethodRef,
            },
          },
          { billing: app.billing.config, outbox: app.outbox, now },
        ),
      );
      if (result && !result.completed && result.reason === 'email_in_use') await refuseTakenEmail(registrationId);
      app.outbox.kick();
      return ok({ registerId: registrationId, orderId });
    },
  );

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
      const [registration] = await app.db.select().from(registrations).where(eq(registrations.id, request.params.id));
      if (!registration) throw new HttpError(404, say('signUpNotFound'));
      const state = registration.state as 'querying' | 'created' | 'sign_failed' | 'unsubscribed' | 'unknown';
      if (state === 'sign_failed' || state === 'unknown' || state === 'unsubscribed') {
        return ok({
          state,
          ...(registration.failureCode ? { failureCode: registration.failureCode } : {}),
          // Ours in the reader's language for a known code; the provider's own text only as a fallback.
          ...(registration.failureCode || registration.failureMessage
            ? {
                failureMessage: failureText(
                  registration.failureCode,
                  requestLocale(request, registration.locale === 'id' ? 'id' : 'en'),
                  registration.failureMessage,
                ),
              }
            : {}),
        });
      }
      if (state !== 'created') return ok({ state });
      if (registration.userId) {
        const subscription = await findSubscription(app.db, registration.userId);
        if (subscription?.status === 'unsubscribed') return ok({ state: 'unsubscribed' as const });
      }
      const now = app.billing.clock.now();
      const authCode = await app.db.transaction(async (tx) => {
        const email = await claimAuthCodeHandout(tx, registration.id, now);
        return email ? issueAuthCode(tx, app.auth.secrets.hmacSecret, email) : null;
      });
      return ok({ state, ...(authCode ? { authCode } : {}) });
    },
  );
};

export default registrationRoutes;
