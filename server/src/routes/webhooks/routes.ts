import type Stripe from 'stripe';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { completeRegistration, failRegistration } from '../../billing/subscriptions';
import type { DatabaseExecutor } from '../../db/open-database';
import { payments, registrations, webhookEvents } from '../../db/schema';
import { errorEnvelope, errorResponses, HttpError, ok } from '../../lib/envelope';
import { intentOutcome } from '../../payments/stripe';
import { stripeHeaders, webhookResponse } from './schemas';

/**
 * Provider webhooks. The body is read raw (a signature covers the exact bytes), so this plugin is encapsulated:
 * its JSON parser keeps buffers for these routes only. Each event id is recorded in webhook_events in the same
 * transaction as its effect: a replayed event finds its row and changes nothing.
 */
const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_request, body, done) =>
    done(null, body),
  );

  /** True the first time an event id is seen (inside the caller's transaction). */
  async function firstDelivery(tx: DatabaseExecutor, provider: string, eventId: string, type: string) {
    const inserted = await tx
      .insert(webhookEvents)
      .values({ provider, eventId, type })
      .onConflictDoNothing()
      .returning({ eventId: webhookEvents.eventId });
    return inserted.length === 1;
  }

  async function settleStripeIntent(tx: DatabaseExecutor, intent: Stripe.PaymentIntent) {
    const registrationId = intent.metadata?.registrationId;
    if (!registrationId || intent.metadata?.kind !== 'first_day') return;
    const [registration] = await tx.select().from(registrations).where(eq(registrations.id, registrationId));
    if (!registration || registration.provider !== 'stripe') return;
    const now = app.billing.clock.now();
    const outcome = intentOutcome(intent);
    const locale = registration.locale === 'id' ? 'id' : 'en';
    if (outcome.outcome === 'succeeded') {
      const result = await completeRegistration(
        tx,
        registrationId,
        {
          outcome,
          method: 'card',
          customerRef: typeof intent.customer === 'string' ? intent.customer : (intent.customer?.id ?? null),
          paymentMethodRef:
            typeof intent.payment_method === 'string' ? intent.payment_method : (intent.payment_method?.id ?? null),
        },
        { billing: app.billing.config, mailer: app.mailer, now },
      );
      if (!result.completed && result.reason === 'email_in_use') {
        await app.billing.stripe?.refund(intent.id, `refund:${registrationId}`);
        await tx.update(payments).set({ state: 'refunded' }).where(eq(payments.providerRef, intent.id));
      }
    } else if (outcome.outcome === 'failed') {
      await failRegistration(tx, registrationId, outcome, { now, price: app.billing.config.prices[locale] });
    }
  }

  app.post(
    '/api/v1/webhooks/stripe',
    {
      schema: {
        tags: ['webhooks'],
        summary: "Stripe's events, verified by their signature (STRIPE_WEBHOOK_SECRET)",
        headers: stripeHeaders,
        body: z.unknown(),
        response: { 200: webhookResponse, 404: errorEnvelope, ...errorResponses },
      },
    },
    async (request) => {
      const stripe = app.billing.stripe;
      if (!stripe) throw new HttpError(404, 'Stripe is not configured on this server.');
      if (!Buffer.isBuffer(request.body)) throw new HttpError(400, 'Expected the raw JSON event');
      let event: Stripe.Event;
      try {
        event = stripe.verifyWebhook(request.body, request.headers['stripe-signature']);
      } catch {
        request.log.warn('A Stripe webhook with a bad signature was refused');
        throw new HttpError(400, 'The webhook signature does not match.');
      }
      const duplicate = !(await app.db.transaction(async (tx) => {
        if (!(await firstDelivery(tx, 'stripe', event.id, event.type))) return false;
        if (event.type === 'payment_intent.succeeded' || event.type === 'payment_intent.payment_failed') {
          await settleStripeIntent(tx, event.data.object);
        }
        return true;
      }));
      app.mailer.kick();
      return ok({ received: true as const, duplicate });
    },
  );
};

export default webhookRoutes;
