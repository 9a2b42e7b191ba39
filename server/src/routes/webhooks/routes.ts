import formBody from '@fastify/formbody';
import type { FastifyReply } from 'fastify';
import type Stripe from 'stripe';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelope, errorResponses, HttpError, ok } from '../../lib/envelope';
import type { Config } from '../../config';
import { TWILIO_STATUS_PATH } from '../../messages/twilio-status';
import { receiveTwilioStatus, smsFallbackServices } from '../../requests/request-deliveries';
import {
  paypalHeaders,
  stripeHeaders,
  twilioHeaders,
  twilioIncomingBody,
  twilioStatusBody,
  twilioStatusResponse,
  webhookResponse,
} from './schemas';
import { say, webhookRules, type MidtransNotification, type PaypalCaptureEvent } from '../../billing/payment-webhooks';
import { EMPTY_TWIML, TWILIO_INBOUND_PATH } from '../../messages/twilio-inbound';
import { receiveTwilioReply } from '../../sharing/reply-opt-out';

/**
 * Provider webhooks. The body is read raw (a signature covers the exact bytes), so this plugin is encapsulated:
 * its JSON parser keeps buffers for these routes only. Each event id is recorded in webhook_events in the same
 * transaction as its effect: a replayed event finds its row and changes nothing. HTTP only (the raw body, the
 * signature); what an event changes is in service.ts.
 */
const webhookRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, options) => {
  const { config } = options;
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_request, body, done) =>
    done(null, body),
  );
  // Twilio posts its callbacks as a form.
  await app.register(formBody, { bodyLimit: 64 * 1024 });

  const rules = webhookRules(app);

  app.post(
    '/api/v1/webhooks/stripe',
    {
      // Posted by the provider's servers, never by a page of ours: the signature is what proves it.
      config: { crossSite: 'allowed' },
      schema: {
        tags: ['webhooks'],
        summary: "Stripe's events, verified by their signature (STRIPE_WEBHOOK_SECRET)",
        description:
          'payment_intent.succeeded and .payment_failed settle a pending payment; charge.refunded and ' +
          'charge.dispute.created are recorded on the payment (refunded, partly refunded, disputed); a full ' +
          'refund of the current period’s charge or a dispute ends the subscription. charge.dispute.closed with ' +
          'status won gives the payment back its state and the subscription the dispute ended its status and ' +
          'period end.',
        headers: stripeHeaders,
        body: z.unknown(),
        response: { 200: webhookResponse, 404: errorEnvelope, ...errorResponses },
      },
    },
    async (request) => {
      const stripe = app.billing.stripe;
      if (!stripe) throw new HttpError(404, say('stripeNotConfigured'));
      if (!Buffer.isBuffer(request.body)) throw new HttpError(400, say('rawEventExpected'));
      let event: Stripe.Event;
      try {
        event = stripe.verifyWebhook(request.body, request.headers['stripe-signature']);
      } catch {
        request.log.warn('A Stripe webhook with a bad signature was refused');
        throw new HttpError(400, say('signatureMismatch'));
      }
      const { duplicate } = await rules.applyStripeEvent(event);
      return ok({ received: true as const, duplicate });
    },
  );
  app.post(
    '/api/v1/webhooks/paypal',
    {
      // Posted by the provider's servers, never by a page of ours: the signature is what proves it.
      config: { crossSite: 'allowed' },
      schema: {
        tags: ['webhooks'],
        summary: "PayPal's events, verified through PayPal's verify-webhook-signature API (PAYPAL_WEBHOOK_ID)",
        description:
          'PAYMENT.CAPTURE.COMPLETED settles a pending capture (first day, renew after expiry, or a renewal); ' +
          'PAYMENT.CAPTURE.DENIED and .DECLINED fail it. Found by the payment key sent as custom_id. ' +
          'PAYMENT.CAPTURE.REFUNDED and .REVERSED are recorded on the captured payment (refunded, partly ' +
          'refunded, disputed); a full refund of the current period’s charge or a reversal ends the subscription.',
        headers: paypalHeaders,
        body: z.unknown(),
        response: { 200: webhookResponse, 404: errorEnvelope, ...errorResponses },
      },
    },
    async (request) => {
      const paypal = app.billing.paypal;
      if (!paypal) throw new HttpError(404, say('paypalNotConfigured'));
      if (!Buffer.isBuffer(request.body)) throw new HttpError(400, say('rawEventExpected'));
      let event: PaypalCaptureEvent;
      try {
        event = JSON.parse(request.body.toString('utf8')) as PaypalCaptureEvent;
      } catch {
        throw new HttpError(400, say('rawEventExpected'));
      }
      if (typeof event?.id !== 'string' || typeof event.event_type !== 'string') {
        throw new HttpError(400, say('rawEventExpected'));
      }
      let genuine: boolean;
      try {
        genuine = await paypal.verifyWebhook(request.headers, request.body);
      } catch (error) {
        request.log.error({ message: (error as Error).message }, "PayPal's webhook check could not be reached");
        throw new HttpError(502, say('paypalCheckUnavailable'));
      }
      if (!genuine) {
        request.log.warn('A PayPal webhook that PayPal did not verify was refused');
        throw new HttpError(400, say('signatureMismatch'));
      }

      const { duplicate } = await rules.applyPaypalEvent(paypal, event);
      return ok({ received: true as const, duplicate });
    },
  );

  app.post(
    '/api/v1/webhooks/midtrans',
    {
      // Posted by Midtrans's servers, never by a page of ours: the signature is what proves it.
      config: { crossSite: 'allowed' },
      schema: {
        tags: ['webhooks'],
        summary: "Midtrans's HTTP notifications, verified by their signature_key (MIDTRANS_SERVER_KEY)",
        description:
          'signature_key must be SHA-512 of order_id + status_code + gross_amount + the server key (compared in ' +
          "constant time); wrong or missing: 403, nothing changes. Each order's status is handled once; the " +
          "payment's state is then read from Midtrans's status call, not from the notification: settlement with the " +
          'amount and currency asked completes the sign-up or renewal, expire / cancel / deny end it ' +
          '(payment_expired, payment_cancelled, payment_denied), a settlement of another amount or currency ends ' +
          'it as payment_amount_mismatch and owes the money back, refund / partial_refund (ours, or made in ' +
          "Midtrans's dashboard) record everything refunded on the payment (once per amount; a full refund of the " +
          "current period's payment ends the subscription), anything else changes nothing. Set this address " +
          "as the Payment Notification URL in Midtrans's dashboard.",
        body: z.unknown(),
        response: { 200: webhookResponse, 403: errorEnvelope, 404: errorEnvelope, ...errorResponses },
      },
    },
    async (request) => {
      const midtrans = app.billing.midtrans;
      if (!midtrans) throw new HttpError(404, say('midtransNotConfigured'));
      if (!Buffer.isBuffer(request.body)) throw new HttpError(400, say('notificationExpected'));
      let notification: Partial<Record<keyof MidtransNotification, unknown>>;
      try {
        notification = JSON.parse(request.body.toString('utf8')) as typeof notification;
      } catch {
        throw new HttpError(400, say('notificationExpected'));
      }
      const signed = ['order_id', 'status_code', 'gross_amount', 'signature_key'] as const;
      const fields = Object.fromEntries(
        signed.map((name) => [name, typeof notification?.[name] === 'string' ? notification[name] : undefined]),
      ) as Partial<MidtransNotification>;
      if (!fields.order_id || !fields.status_code || !fields.gross_amount || !fields.signature_key) {
        request.log.warn('A Midtrans notification without its signed fields was refused');
        throw new HttpError(403, say('signatureMismatch'));
      }
      const complete = fields as MidtransNotification;
      if (!midtrans.isGenuine(complete)) {
        request.log.warn('A Midtrans notification with a bad signature was refused');
        throw new HttpError(403, say('signatureMismatch'));
      }
      const transactionStatus = notification.transaction_status;
      const { duplicate } = await rules.applyMidtransNotification(midtrans, {
        ...complete,
        ...(typeof transactionStatus === 'string' ? { transaction_status: transactionStatus } : {}),
      });
      return ok({ received: true as const, duplicate });
    },
  );

  app.post(
    TWILIO_STATUS_PATH,
    {
      // Posted by Twilio's servers, never by a page of ours: the signature is what proves it.
      config: { crossSite: 'allowed' },
      schema: {
        consumes: ['application/x-www-form-urlencoded'],
        tags: ['webhooks'],
        summary: "Twilio's status callbacks (delivery receipts), verified by X-Twilio-Signature (TWILIO_AUTH_TOKEN)",
        description:
          'The message is found by its MessageSid; its MessageStatus is stored only when it moves the delivery ' +
          'forward (queued < sent < delivered < read; failed and undelivered are final, with ErrorCode kept), so a ' +
          'replay or a late status changes nothing. The signature is checked against PUBLIC_URL and this path, the ' +
          'address Twilio posted to. A wrong or missing signature: 403, nothing changes. An unknown MessageSid: ' +
          '200, ignored. SMS and WhatsApp alike; a WhatsApp message the number cannot take (ErrorCode 63003 or ' +
          '63024: no WhatsApp) sends its request once by SMS instead, within the daily SMS limits.',
        headers: twilioHeaders,
        body: twilioStatusBody,
        response: { 200: twilioStatusResponse, 403: errorEnvelope, 404: errorEnvelope, ...errorResponses },
      },
    },
    async (request) => {
      const fallback = smsFallbackServices(config, app.outbox, app.auth.secrets.hmacSecret);
      const outcome = await receiveTwilioStatus(app.db, fallback, config.requests.twilio, {
        // The URL Twilio signed: the public address (behind the proxy), not the host this server was reached at.
        url: `${config.publicUrl}${request.url}`,
        signature: request.headers['x-twilio-signature'],
        params: request.body,
      });
      if (outcome.kind === 'not-configured') throw new HttpError(404, say('twilioNotConfigured'));
      if (outcome.kind === 'forbidden') {
        request.log.warn('A Twilio status callback with a bad or missing signature was refused');
        throw new HttpError(403, say('signatureMismatch'));
      }
      return ok({ received: true as const, recorded: outcome.kind === 'recorded' });
    },
  );

  app.post(
    TWILIO_INBOUND_PATH,
    {
      // Posted by Twilio's servers, never by a page of ours: the signature is what proves it.
      config: { crossSite: 'allowed' },
      schema: {
        consumes: ['application/x-www-form-urlencoded'],
        tags: ['webhooks'],
        summary:
          "Twilio's incoming messages (replies to Kabari's SMS and WhatsApp messages), verified by X-Twilio-Signature " +
          '(TWILIO_AUTH_TOKEN)',
        description:
          'A reply that is a stop word (STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE, OPTOUT or BERHENTI, ' +
          'in any case, with spaces and punctuation around it) from a number Kabari sent an SMS, a WhatsApp message ' +
          '(From whatsapp:+…) or a request to opts ' +
          "that number out of every future request, as the link's opt-out does, and declines its unanswered " +
          'requests; one confirmation goes through the outbox on the same channel (SMS or WhatsApp) in the ' +
          'language of the message it answered ' +
          '(none when Twilio answered the keyword itself: OptOutType STOP). Any other text, a number Kabari never ' +
          'wrote to, a number already opted out or a replayed message changes nothing and sends nothing. Answered ' +
          'with an empty TwiML <Response/> (text/xml). The signature is checked against PUBLIC_URL and this path; a ' +
          'wrong or missing signature: 403, nothing changes.',
        headers: twilioHeaders,
        body: twilioIncomingBody,
        response: { 403: errorEnvelope, 404: errorEnvelope, ...errorResponses },
      },
    },
    async (request, reply) => {
      const deps = {
        db: app.db,
        outbox: app.outbox,
        hmacSecret: app.auth.secrets.hmacSecret,
        smsDailyBudget: config.requests.sendLimits.smsDailyBudget,
      };
      const outcome = await receiveTwilioReply(deps, config.requests.twilio, {
        // The URL Twilio signed: the public address (behind the proxy), not the host this server was reached at.
        url: `${config.publicUrl}${request.url}`,
        signature: request.headers['x-twilio-signature'],
        params: request.body,
      });
      if (outcome.kind === 'not-configured') throw new HttpError(404, say('twilioNotConfigured'));
      if (outcome.kind === 'forbidden') {
        request.log.warn('A Twilio incoming message with a bad or missing signature was refused');
        throw new HttpError(403, say('signatureMismatch'));
      }
      // TwiML, not the JSON envelope: Twilio sends nothing back for it; a confirmation goes through the outbox.
      return (reply as FastifyReply)
        .type('text/xml')
        .serializer((payload: unknown) => String(payload))
        .send(EMPTY_TWIML);
    },
  );
};

export default webhookRoutes;
