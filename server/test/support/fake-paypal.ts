import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { paypalApiBase } from '../../src/payments/paypal-outcomes';

export interface RecordedPaypalCall {
  method: string;
  path: string;
  requestId: string | null;
  body: string;
  /** The HTTP status the fake answered. */
  status?: number;
}

export type CaptureMode = 'completed' | 'declined' | 'pending' | 'completed_without_vault';

/**
 * PayPal's REST API played by a local HTTP server: OAuth, orders (idempotent by PayPal-Request-Id), captures,
 * refunds and verify-webhook-signature, which says SUCCESS only for an event delivered exactly as it was signed.
 */
export class FakePaypal {
  readonly calls: RecordedPaypalCall[] = [];
  captureMode: CaptureMode = 'completed';
  /** What an order paid from the vault answers. */
  vaultOrder: 'completed' | 'payer_action_required' | 'pending' = 'completed';
  /** transmission id → the event as "PayPal" signed it. */
  readonly signed = new Map<string, unknown>();
  private readonly orders = new Map<string, string>();
  /** What reading an order back answers (the reconciliation job asks). */
  readOrder: 'completed' | 'created' | 'approved' | 'voided' | 'missing' | 'pending' = 'completed';
  /** What reading a capture back answers (the renewal reconciliation job asks). */
  readCapture: 'completed' | 'pending' | 'declined' | 'missing' = 'completed';
  /**
   * What refunding a capture answers: made (one per PayPal-Request-Id, as at PayPal), PayPal unavailable, or
   * refused for good (422 TRANSACTION_REFUSED).
   */
  refundMode: 'completed' | 'unavailable' | 'refused' = 'completed';
  /** The refunds PayPal made: PayPal-Request-Id → capture. */
  readonly refundsMade = new Map<string, string>();
  private server: Server | undefined;
  base = '';

  constructor(private readonly webhookId: string) {}

  /**
   * Delivers an event to the app's PayPal webhook as PayPal signed it (this fake's verify-webhook-signature knows
   * it by transmission id); `payload` other than the event itself is what a tampered delivery sends.
   */
  deliverSigned(app: FastifyInstance, event: { id: string }, payload = JSON.stringify(event)) {
    const transmission = `transmission-${event.id}`;
    this.signed.set(transmission, event);
    return app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/paypal',
      headers: {
        'content-type': 'application/json',
        'paypal-transmission-id': transmission,
        'paypal-transmission-time': new Date().toISOString(),
        'paypal-transmission-sig': 'signature',
        'paypal-cert-url': 'https://api.paypal.com/v1/notifications/certs/CERT-1',
        'paypal-auth-algo': 'SHA256withRSA',
      },
      payload,
    });
  }

  async start() {
    this.server = createServer((request, response) => {
      void this.answer(request).then(([status, value]) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop() {
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** The SDK's and the webhook check's fetch: PayPal's host is swapped for this server's. */
  readonly fetch: typeof fetch = (input, init) => {
    const url = typeof input === 'string' || input instanceof URL ? String(input) : input.url;
    const local = url.replace(paypalApiBase('sandbox'), this.base);
    if (!local.startsWith(this.base)) throw new Error(`unexpected host: ${url}`);
    return typeof input === 'string' || input instanceof URL
      ? fetch(local, init)
      : fetch(new Request(local, input), init);
  };

  private async answer(request: IncomingMessage): Promise<[number, unknown]> {
    let body = '';
    for await (const chunk of request) body += String(chunk);
    const path = new URL(request.url ?? '/', this.base).pathname;
    const requestId = (request.headers['paypal-request-id'] as string | undefined) ?? null;
    const call: RecordedPaypalCall = { method: request.method ?? 'GET', path, requestId, body };
    this.calls.push(call);
    const answered = await this.route(request, path, requestId, body);
    call.status = answered[0];
    return answered;
  }

  private async route(
    request: IncomingMessage,
    path: string,
    requestId: string | null,
    body: string,
  ): Promise<[number, unknown]> {
    if (path === '/v1/oauth2/token') {
      return [200, { access_token: 'A21-token', token_type: 'Bearer', expires_in: 32400 }];
    }
    if (request.headers.authorization !== 'Bearer A21-token') return [401, { name: 'AUTHENTICATION_FAILURE' }];
    if (path === '/v2/checkout/orders' && request.method === 'POST') {
      const order = JSON.parse(body) as { payment_source?: { paypal?: { vault_id?: string } } };
      const vaultId = order.payment_source?.paypal?.vault_id;
      const known = requestId ? this.orders.get(requestId) : undefined;
      const id = known ?? `ORDER${this.orders.size + 1}`;
      if (requestId) this.orders.set(requestId, id);
      if (vaultId && this.vaultOrder === 'payer_action_required') return [200, { id, status: 'PAYER_ACTION_REQUIRED' }];
      if (vaultId && this.vaultOrder === 'pending') {
        return [
          201,
          {
            id,
            status: 'COMPLETED',
            purchase_units: [{ payments: { captures: [{ id: `CAPTURE-${id}`, status: 'PENDING' }] } }],
          },
        ];
      }
      if (vaultId) return [201, this.completedOrder(id, `CAPTURE-${id}`, vaultId)];
      return [200, { id, status: 'PAYER_ACTION_REQUIRED' }];
    }
    const capture = /^\/v2\/checkout\/orders\/(\w+)\/capture$/.exec(path);
    if (capture) {
      const id = capture[1]!;
      if (this.captureMode === 'declined') {
        return [
          422,
          { name: 'UNPROCESSABLE_ENTITY', message: 'declined', details: [{ issue: 'INSTRUMENT_DECLINED' }] },
        ];
      }
      if (this.captureMode === 'pending') {
        return [
          201,
          {
            id,
            status: 'COMPLETED',
            purchase_units: [{ payments: { captures: [{ id: `CAPTURE-${id}`, status: 'PENDING' }] } }],
          },
        ];
      }
      return [201, this.completedOrder(id, `CAPTURE-${id}`, this.captureMode === 'completed' ? 'VAULT1' : null)];
    }
    const order = /^\/v2\/checkout\/orders\/(\w+)$/.exec(path);
    if (order) {
      const id = order[1]!;
      if (this.readOrder === 'missing') return [404, { name: 'RESOURCE_NOT_FOUND' }];
      if (this.readOrder === 'created') return [200, { id, status: 'PAYER_ACTION_REQUIRED' }];
      if (this.readOrder === 'approved') return [200, { id, status: 'APPROVED' }];
      if (this.readOrder === 'voided') return [200, { id, status: 'VOIDED' }];
      if (this.readOrder === 'pending') {
        return [
          200,
          {
            id,
            status: 'COMPLETED',
            purchase_units: [{ payments: { captures: [{ id: `CAPTURE-${id}`, status: 'PENDING' }] } }],
          },
        ];
      }
      return [200, this.completedOrder(id, `CAPTURE-${id}`, 'VAULT1')];
    }
    const captured = /^\/v2\/payments\/captures\/([\w-]+)$/.exec(path);
    if (captured && request.method === 'GET') {
      const id = captured[1]!;
      if (this.readCapture === 'missing' || !id.startsWith('CAPTURE-')) return [404, { name: 'RESOURCE_NOT_FOUND' }];
      if (this.readCapture === 'declined') {
        return [200, { id, status: 'DECLINED', status_details: { reason: 'DECLINED_BY_RISK_FRAUD_FILTERS' } }];
      }
      return [200, { id, status: this.readCapture === 'pending' ? 'PENDING' : 'COMPLETED' }];
    }
    const refund = /^\/v2\/payments\/captures\/([\w-]+)\/refund$/.exec(path);
    if (refund) {
      if (this.refundMode === 'unavailable') return [500, { name: 'INTERNAL_SERVER_ERROR', message: 'unavailable' }];
      if (this.refundMode === 'refused') {
        return [
          422,
          {
            name: 'UNPROCESSABLE_ENTITY',
            message: 'The requested action could not be performed.',
            details: [{ issue: 'TRANSACTION_REFUSED', description: 'The request was refused.' }],
          },
        ];
      }
      if (requestId) this.refundsMade.set(requestId, refund[1]!);
      return [201, { id: `REFUND-${requestId ?? 'x'}`, status: 'COMPLETED' }];
    }
    if (path === '/v1/notifications/verify-webhook-signature') {
      const check = JSON.parse(body) as { transmission_id: string; webhook_id: string; webhook_event: unknown };
      const original = this.signed.get(check.transmission_id);
      const genuine =
        check.webhook_id === this.webhookId &&
        original !== undefined &&
        JSON.stringify(original) === JSON.stringify(check.webhook_event);
      return [200, { verification_status: genuine ? 'SUCCESS' : 'FAILURE' }];
    }
    return [404, { name: 'RESOURCE_NOT_FOUND' }];
  }

  private completedOrder(id: string, captureId: string, vaultId: string | null) {
    return {
      id,
      status: 'COMPLETED',
      payment_source: {
        paypal: {
          email_address: 'payer@example.com',
          ...(vaultId
            ? { attributes: { vault: { id: vaultId, status: 'VAULTED', customer: { id: 'PAYPAL-CUSTOMER-1' } } } }
            : {}),
        },
      },
      purchase_units: [{ payments: { captures: [{ id: captureId, status: 'COMPLETED' }] } }],
    };
  }
}
