import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';

export interface RecordedStripeCall {
  method: string;
  path: string;
  body: string;
  idempotencyKey: string | null;
  /** The HTTP status the fake answered. */
  status?: number;
}

/** What creating (confirming) a PaymentIntent answers. */
export type IntentStatus = 'succeeded' | 'requires_action' | 'processing' | 'declined';

/** What reading a PaymentIntent back answers (the reconciliation job asks). */
export type RetrievedStatus =
  'succeeded' | 'requires_action' | 'processing' | 'requires_payment_method' | 'canceled' | 'missing';

/**
 * What POST /v1/refunds answers: made; Stripe unavailable (a 500 the SDK is told not to retry); or refused for
 * good (400 charge_expired_for_refund: a charge too old to refund).
 */
export type StripeRefundAnswer = 'refunded' | 'unavailable' | 'expired';

export interface FakeStripeOptions {
  /** GET /v1/payment_intents/{id}: the intent's state now (default: as created). */
  retrieved?: () => RetrievedStatus;
  /** POST /v1/refunds (default: made). */
  refund?: () => StripeRefundAnswer;
}

function intentBody(id: string, status: string) {
  return {
    id,
    object: 'payment_intent',
    status,
    client_secret: `${id}_secret_x`,
    customer: 'cus_1',
    payment_method: 'pm_card_visa',
    latest_charge: { id: 'ch_1', payment_method_details: { card: { brand: 'visa', last4: '4242' } } },
    last_payment_error:
      status === 'requires_payment_method'
        ? { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' }
        : null,
  };
}

/**
 * Stripe's API played back: every request the SDK makes is recorded, with its idempotency key and the status
 * answered. A successful refund is one per key, as at Stripe (a retry with the key is the same refund).
 */
export function fakeStripeApi(
  calls: RecordedStripeCall[],
  intentStatus: () => IntentStatus,
  options: FakeStripeOptions = {},
) {
  const fetchFn = async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === 'string' ? init.body : '';
    const method = init?.method ?? 'GET';
    const call: RecordedStripeCall = {
      method,
      path: url.pathname,
      body,
      idempotencyKey: headers.get('idempotency-key'),
    };
    calls.push(call);
    const json = (status: number, value: unknown) => {
      call.status = status;
      return new Response(JSON.stringify(value), {
        status,
        headers: { 'content-type': 'application/json', 'request-id': 'req_1', 'stripe-should-retry': 'false' },
      });
    };
    if (url.pathname === '/v1/customers') return json(200, { id: 'cus_1', object: 'customer' });
    if (url.pathname === '/v1/payment_intents') {
      const status = intentStatus();
      if (status === 'declined') {
        return json(402, {
          error: {
            type: 'card_error',
            code: 'card_declined',
            decline_code: 'generic_decline',
            message: 'Your card was declined.',
            payment_intent: { id: 'pi_declined' },
          },
        });
      }
      return json(200, intentBody('pi_1', status));
    }
    const read = /^\/v1\/payment_intents\/(\w+)$/.exec(url.pathname);
    if (read && method === 'GET') {
      const status = options.retrieved?.() ?? intentStatus();
      if (status === 'missing') {
        return json(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such' } });
      }
      return json(200, intentBody(read[1]!, status === 'declined' ? 'requires_payment_method' : status));
    }
    const cancel = /^\/v1\/payment_intents\/(\w+)\/cancel$/.exec(url.pathname);
    if (cancel) return json(200, intentBody(cancel[1]!, 'canceled'));
    if (url.pathname === '/v1/refunds') {
      const answer = options.refund?.();
      if (answer === 'unavailable') {
        return json(500, { error: { type: 'api_error', message: 'Stripe is unavailable.' } });
      }
      if (answer === 'expired') {
        return json(400, {
          error: {
            type: 'invalid_request_error',
            code: 'charge_expired_for_refund',
            message: 'The charge is too old to be refunded.',
          },
        });
      }
      return json(200, { id: `re_${call.idempotencyKey ?? 'x'}`, object: 'refund' });
    }
    return json(404, { error: { type: 'invalid_request_error', message: 'unknown' } });
  };
  return Stripe.createFetchHttpClient(fetchFn as typeof fetch);
}

/** The refunds Stripe made: one per idempotency key it answered with success. */
export function stripeRefundsMade(calls: RecordedStripeCall[]): string[] {
  const keys = calls
    .filter((call) => call.path === '/v1/refunds' && call.status === 200)
    .map((call) => call.idempotencyKey ?? '');
  return [...new Set(keys)];
}

/** A Stripe payment_intent.succeeded (or .payment_failed) event as our webhook receives it, as JSON. */
export function paymentIntentEvent(
  eventId: string,
  intent: {
    id?: string;
    status: string;
    metadata: Record<string, string>;
    lastPaymentError?: { code: string; message: string } | null;
  },
): string {
  return JSON.stringify({
    id: eventId,
    object: 'event',
    type: intent.status === 'succeeded' ? 'payment_intent.succeeded' : 'payment_intent.payment_failed',
    data: {
      object: {
        id: intent.id ?? 'pi_1',
        object: 'payment_intent',
        status: intent.status,
        customer: 'cus_1',
        payment_method: 'pm_card_visa',
        metadata: intent.metadata,
        ...(intent.lastPaymentError === undefined ? {} : { last_payment_error: intent.lastPaymentError }),
      },
    },
  });
}

/** Posts a payload to the app's Stripe webhook with this signature (`signedWith` makes a valid one). */
export function postStripeWebhook(app: FastifyInstance, payload: string, signature: string) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/webhooks/stripe',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });
}

/** Stripe's signature header for a payload, with the webhook secret given. */
export function signedWith(payload: string, secret: string): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret });
}
