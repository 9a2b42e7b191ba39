import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { outboxMessages, payments, registrations, subscriptions, users, webhookEvents } from '../../../src/db/schema';
import { paypalApiBase, PaypalProcessor } from '../../../src/payments/paypal';
import { describeEachDatabase } from '../../support/databases';
import { freshEmail, freshIp } from '../../support/sign-up';
import { buildTestApp, type TestApp } from '../../support/test-app';

// PayPal only: no Stripe keys, so sign-up must work through PayPal alone.
const PAYPAL_ENV = {
  PAYPAL_CLIENT_ID: 'kabari-client',
  PAYPAL_CLIENT_SECRET: 'kabari-secret',
  PAYPAL_WEBHOOK_ID: 'WH-KABARI',
  RENEWAL_INTERVAL_SECONDS: '0',
};

interface RecordedCall {
  method: string;
  path: string;
  requestId: string | null;
  body: string;
}

type CaptureMode = 'completed' | 'declined' | 'pending' | 'completed_without_vault';

/**
 * PayPal's REST API played by a local HTTP server: OAuth, orders (idempotent by PayPal-Request-Id), captures,
 * refunds and verify-webhook-signature, which says SUCCESS only for an event delivered exactly as it was signed.
 */
class FakePaypal {
  readonly calls: RecordedCall[] = [];
  captureMode: CaptureMode = 'completed';
  /** What an order paid from the vault answers. */
  vaultOrder: 'completed' | 'payer_action_required' = 'completed';
  /** transmission id → the event as "PayPal" signed it. */
  readonly signed = new Map<string, unknown>();
  private readonly orders = new Map<string, string>();
  private server: Server | undefined;
  base = '';

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
    this.calls.push({ method: request.method ?? 'GET', path, requestId, body });
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
    if (order) return [200, this.completedOrder(order[1]!, `CAPTURE-${order[1]}`, 'VAULT1')];
    if (/^\/v2\/payments\/captures\/[\w-]+\/refund$/.test(path)) return [201, { id: 'REFUND1', status: 'COMPLETED' }];
    if (path === '/v1/notifications/verify-webhook-signature') {
      const check = JSON.parse(body) as { transmission_id: string; webhook_id: string; webhook_event: unknown };
      const original = this.signed.get(check.transmission_id);
      const genuine =
        check.webhook_id === PAYPAL_ENV.PAYPAL_WEBHOOK_ID &&
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

describeEachDatabase('PayPal', (driver) => {
  let testApp: TestApp;
  const paypal = new FakePaypal();

  beforeAll(async () => {
    await paypal.start();
    testApp = await buildTestApp(driver, PAYPAL_ENV);
    const processor = new PaypalProcessor(testApp.config.billing.paypal!, paypal.fetch);
    testApp.app.billing.paypal = processor;
    testApp.app.billing.chargers.paypal = processor;
  });

  afterAll(async () => {
    await testApp?.close();
    await paypal.stop();
  });

  const app = () => testApp.app;
  const account = (email: string) => ({
    email,
    displayName: 'Rina',
    locale: 'en',
    ageConfirmed: true,
    termsAccepted: true,
    method: 'paypal',
  });

  const post = (email: string, extra: Record<string, unknown> = {}) =>
    app().inject({
      method: 'POST',
      url: '/api/v1/auth/registerAndSign/paypal',
      remoteAddress: freshIp(),
      payload: { ...account(email), ...extra },
    });

  async function createAndCapture(email: string) {
    const created = await post(email);
    expect(created.statusCode).toBe(200);
    const { registerId, orderId } = created.json().data as { registerId: string; orderId: string };
    const captured = await post(email, { registerId, orderId, capture: true });
    return { registerId, orderId, captured };
  }

  const query = (registerId: string) =>
    app().inject({ method: 'GET', url: `/api/v1/personnal/registerQuery/${registerId}` });

  it('offers PayPal alone when only PayPal is configured, and refuses the sandbox', async () => {
    const terms = await app().inject({ method: 'POST', url: '/api/v1/personnal/getPaidAmount', payload: {} });
    expect(terms.json().data).toMatchObject({
      methods: { card: null, wallet: null, paypal: 'paypal' },
      sandbox: false,
      paypalClientId: 'kabari-client',
    });
    const sandbox = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/registerAndSign/v5pay',
      headers: { 'accept-language': 'id' },
      payload: { ...account(freshEmail()), method: 'wallet' },
    });
    expect(sandbox.statusCode).toBe(400);
    expect(sandbox.json().message).toBe('Metode pembayaran ini tidak tersedia di sini. Silakan pilih metode lain.');
  });

  it('creates the order with the sign-up’s request id, captures it, and creates the user with the vaulted account', async () => {
    paypal.captureMode = 'completed';
    const email = freshEmail();
    const { registerId, orderId, captured } = await createAndCapture(email);
    expect(captured.json().data).toEqual({ registerId, orderId });

    const createCall = paypal.calls.find(
      (call) => call.path === '/v2/checkout/orders' && call.requestId === `order:${registerId}`,
    );
    expect(createCall).toBeDefined();
    const orderBody = JSON.parse(createCall!.body);
    expect(orderBody.purchase_units[0]).toMatchObject({
      amount: { currency_code: 'USD', value: '0.99' },
      custom_id: `first_day:${registerId}`,
    });
    expect(orderBody.payment_source.paypal.attributes.vault).toMatchObject({
      store_in_vault: 'ON_SUCCESS',
      usage_type: 'MERCHANT',
    });
    const captureCall = paypal.calls.find((call) => call.path === `/v2/checkout/orders/${orderId}/capture`);
    expect(captureCall?.requestId).toBe(`capture:${registerId}`);

    expect((await query(registerId)).json().data.state).toBe('created');
    const [payment] = await app().db.select().from(payments).where(eq(payments.registrationId, registerId));
    expect(payment).toMatchObject({
      provider: 'paypal',
      state: 'succeeded',
      providerRef: `CAPTURE-${orderId}`,
      amount: 99,
    });
    const [user] = await app().db.select().from(users).where(eq(users.email, email));
    const [subscription] = await app().db.select().from(subscriptions).where(eq(subscriptions.userId, user!.id));
    expect(subscription).toMatchObject({ provider: 'paypal', providerPaymentMethodRef: 'VAULT1', status: 'trial' });

    // A retried approval changes nothing and captures nothing again.
    const captures = paypal.calls.filter((call) => call.path.endsWith('/capture')).length;
    const again = await post(email, { registerId, orderId, capture: true });
    expect(again.json().data).toEqual({ registerId, orderId });
    expect(paypal.calls.filter((call) => call.path.endsWith('/capture'))).toHaveLength(captures);
    expect(await app().db.select().from(payments).where(eq(payments.registrationId, registerId))).toHaveLength(1);

    // Renewals charge the vaulted account with the period's key as PayPal-Request-Id.
    const report = await app().billing.runRenewals(new Date(Date.now() + 2 * 24 * 3600 * 1000), user!.id);
    expect(report).toMatchObject({ renewed: 1 });
    const renewal = paypal.calls.filter((call) => call.path === '/v2/checkout/orders').at(-1)!;
    expect(renewal.requestId).toMatch(/^renewal:[0-9a-f-]+:1$/);
    expect(JSON.parse(renewal.body).payment_source).toEqual({ paypal: { vault_id: 'VAULT1' } });
  });

  it('a capture for another sign-up’s order is refused', async () => {
    paypal.captureMode = 'completed';
    const first = await post(freshEmail());
    const email = freshEmail();
    const second = await post(email);
    const stolen = await post(email, {
      registerId: second.json().data.registerId,
      orderId: first.json().data.orderId,
      capture: true,
    });
    expect(stolen.statusCode).toBe(404);
  });

  it('a declined capture answers sign_failed with PayPal’s reason and creates no user', async () => {
    paypal.captureMode = 'declined';
    const email = freshEmail();
    const { registerId, captured } = await createAndCapture(email);
    expect(captured.statusCode).toBe(200);
    expect((await query(registerId)).json().data).toMatchObject({
      state: 'sign_failed',
      failureCode: 'INSTRUMENT_DECLINED',
    });
    expect(await app().db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });

  it('without a vaulted account, the renewal job ends the period with a notice to renew (nothing charged)', async () => {
    paypal.captureMode = 'completed_without_vault';
    const email = freshEmail();
    await createAndCapture(email);
    const [user] = await app().db.select().from(users).where(eq(users.email, email));
    const orders = paypal.calls.filter((call) => call.path === '/v2/checkout/orders').length;
    const report = await app().billing.runRenewals(new Date(Date.now() + 2 * 24 * 3600 * 1000), user!.id);
    expect(report).toMatchObject({ failed: 1, renewed: 0 });
    expect(paypal.calls.filter((call) => call.path === '/v2/checkout/orders')).toHaveLength(orders);
    const [subscription] = await app().db.select().from(subscriptions).where(eq(subscriptions.userId, user!.id));
    expect(subscription!.status).toBe('expired');
    const mail = await app().db.select().from(outboxMessages).where(eq(outboxMessages.recipient, email));
    expect(mail.map((message) => message.subject)).toContain('Your Kabari subscription has ended: renew with PayPal');
    expect(await app().db.select().from(payments).where(eq(payments.userId, user!.id))).toHaveLength(1);
  });

  it('a pending capture waits for the webhook; good, tampered and replayed events have one effect', async () => {
    paypal.captureMode = 'pending';
    const email = freshEmail();
    const { registerId, orderId } = await createAndCapture(email);
    expect((await query(registerId)).json().data.state).toBe('querying');

    const event = {
      id: 'WH-EVENT-1',
      event_type: 'PAYMENT.CAPTURE.COMPLETED',
      resource: {
        id: `CAPTURE-${orderId}`,
        status: 'COMPLETED',
        custom_id: `first_day:${registerId}`,
        supplementary_data: { related_ids: { order_id: orderId } },
      },
    };
    paypal.signed.set('transmission-1', event);
    const deliver = (payload: string) =>
      app().inject({
        method: 'POST',
        url: '/api/v1/webhooks/paypal',
        headers: {
          'content-type': 'application/json',
          'paypal-transmission-id': 'transmission-1',
          'paypal-transmission-time': new Date().toISOString(),
          'paypal-transmission-sig': 'signature',
          'paypal-cert-url': 'https://api.paypal.com/v1/notifications/certs/CERT-1',
          'paypal-auth-algo': 'SHA256withRSA',
        },
        payload,
      });

    const tampered = await deliver(JSON.stringify({ ...event, resource: { ...event.resource, id: 'CAPTURE-OTHER' } }));
    expect(tampered.statusCode).toBe(400);
    expect(await app().db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
    expect(await app().db.select().from(webhookEvents).where(eq(webhookEvents.eventId, event.id))).toHaveLength(0);

    const good = await deliver(JSON.stringify(event));
    expect(good.json().data).toEqual({ received: true, duplicate: false });
    const replay = await deliver(JSON.stringify(event));
    expect(replay.json().data).toEqual({ received: true, duplicate: true });

    expect((await query(registerId)).json().data.state).toBe('created');
    const [user] = await app().db.select().from(users).where(eq(users.email, email));
    expect(user).toBeDefined();
    const rows = await app().db.select().from(payments).where(eq(payments.registrationId, registerId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: 'succeeded', provider: 'paypal' });
    expect(await app().db.select().from(outboxMessages).where(eq(outboxMessages.recipient, email))).toHaveLength(1);
    const [subscription] = await app().db.select().from(subscriptions).where(eq(subscriptions.userId, user!.id));
    expect(subscription!.providerPaymentMethodRef).toBe('VAULT1');
    const [registration] = await app().db.select().from(registrations).where(eq(registrations.id, registerId));
    expect(registration!.userId).toBe(user!.id);
  });
  it('an expired PayPal subscriber renews with PayPal: order with the attempt’s key, captured once', async () => {
    paypal.captureMode = 'completed';
    const email = freshEmail();
    const { registerId } = await createAndCapture(email);
    const authCode = (await query(registerId)).json().data.authCode;
    const login = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/loginByAuthCode',
      remoteAddress: freshIp(),
      payload: { authCode },
    });
    const token: string = login.json().data.token;
    const [user] = await app().db.select().from(users).where(eq(users.email, email));
    await app()
      .db.update(subscriptions)
      .set({ status: 'expired', validUntil: new Date(Date.now() - 1000) })
      .where(eq(subscriptions.userId, user!.id));
    const renew = (payload: Record<string, unknown>) =>
      app().inject({
        method: 'POST',
        url: '/api/v1/personnal/subscribe/renew',
        headers: { authorization: token },
        payload: { method: 'paypal', ...payload },
      });

    const created = await renew({});
    expect(created.statusCode).toBe(200);
    const { registerId: renewId, orderId } = created.json().data as { registerId: string; orderId: string };
    const order = paypal.calls.find((call) => call.requestId === `order:${renewId}`);
    expect(JSON.parse(order!.body).purchase_units[0]).toMatchObject({
      amount: { value: '29.99' },
      custom_id: `restart:${renewId}`,
    });
    expect((await renew({ registerId: renewId, orderId, capture: true })).json().data).toEqual({
      registerId: renewId,
      orderId,
    });
    expect((await renew({ registerId: renewId, orderId, capture: true })).statusCode).toBe(200);
    expect(paypal.calls.filter((call) => call.path === `/v2/checkout/orders/${orderId}/capture`)).toHaveLength(1);
    expect((await query(renewId)).json().data.state).toBe('created');
    const [subscription] = await app().db.select().from(subscriptions).where(eq(subscriptions.userId, user!.id));
    expect(subscription).toMatchObject({ status: 'active', periodIndex: 1, providerPaymentMethodRef: 'VAULT1' });
    expect(await app().db.select().from(payments).where(eq(payments.registrationId, renewId))).toHaveLength(1);
  });
  it('a vaulted renewal PayPal wants the payer to approve fails at once, with the reason emailed', async () => {
    paypal.captureMode = 'completed';
    const email = freshEmail();
    await createAndCapture(email);
    const [user] = await app().db.select().from(users).where(eq(users.email, email));
    paypal.vaultOrder = 'payer_action_required';
    try {
      const report = await app().billing.runRenewals(new Date(Date.now() + 2 * 24 * 3600 * 1000), user!.id);
      expect(report).toMatchObject({ failed: 1, waiting: 0 });
    } finally {
      paypal.vaultOrder = 'completed';
    }
    const [subscription] = await app().db.select().from(subscriptions).where(eq(subscriptions.userId, user!.id));
    expect(subscription!.status).toBe('expired');
    const mail = await app().db.select().from(outboxMessages).where(eq(outboxMessages.recipient, email));
    expect(mail.some((message) => message.bodyText.includes('PayPal needs you to approve the payment again'))).toBe(
      true,
    );
  });
});
