import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { users } from '../../../src/db/schema/accounts';
import { payments, registrations, subscriptions, webhookEvents } from '../../../src/db/schema/billing';
import { outboxMessages } from '../../../src/db/schema/outbox';
import { PaypalProcessor } from '../../../src/payments/paypal';
import { FakePaypal } from '../../support/fake-paypal';
import { describeEachDatabase } from '../../support/databases';
import { freshEmail, freshIp } from '../../support/sign-up';
import { buildTestApp, type TestApp } from '../../support/test-app';
import { sessionTokenOf } from '../../support/session-token';

// PayPal only: no Stripe keys, so sign-up must work through PayPal alone.
const PAYPAL_ENV = {
  PAYPAL_CLIENT_ID: 'kabari-client',
  PAYPAL_CLIENT_SECRET: 'kabari-secret',
  PAYPAL_WEBHOOK_ID: 'WH-KABARI',
  RENEWAL_INTERVAL_SECONDS: '0',
};

describeEachDatabase('PayPal', (driver) => {
  let testApp: TestApp;
  const paypal = new FakePaypal(PAYPAL_ENV.PAYPAL_WEBHOOK_ID);

  beforeAll(async () => {
    await paypal.start();
    testApp = await buildTestApp(driver, PAYPAL_ENV);
    const processor = new PaypalProcessor(testApp.config.billing.paypal!, paypal.fetch);
    testApp.app.billing.paypal = processor;
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

  it('is not offered with a price in rupiah, which PayPal does not take: nothing is stored, PayPal is not called', async () => {
    const terms = await app().inject({
      method: 'POST',
      url: '/api/v1/personnal/getPaidAmount',
      payload: { locale: 'id' },
    });
    expect(terms.json().data).toMatchObject({
      currencyCode: 'IDR',
      methods: { card: null, wallet: null, paypal: null },
    });
    const email = freshEmail();
    const callsBefore = paypal.calls.length;
    const refused = await post(email, { locale: 'id' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('This payment method is not available here. Please choose another one.');
    expect(await app().db.select().from(registrations).where(eq(registrations.email, email))).toEqual([]);
    expect(paypal.calls.length).toBe(callsBefore);
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

  it('a sign-up sent again under its attempt id answers the same order: PayPal is asked for one', async () => {
    const email = freshEmail();
    const attemptId = randomUUID();
    const ordersMade = () =>
      paypal.calls.filter((call) => call.method === 'POST' && call.path === '/v2/checkout/orders');
    const before = ordersMade().length;
    const first = await post(email, { attemptId });
    const again = await post(email, { attemptId });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(first.json().data);
    expect(ordersMade().length - before).toBe(1);
  });

  it('refuses a sign-up without the 18+ confirmation or the terms consent before creating an order', async () => {
    const before = paypal.calls.length;
    const noAge = await post(freshEmail(), { ageConfirmed: false });
    expect(noAge.statusCode).toBe(400);
    expect(noAge.json().message).toContain('18 or older');
    const noTerms = await post(freshEmail(), { termsAccepted: undefined });
    expect(noTerms.statusCode).toBe(400);
    expect(noTerms.json().message).toContain('Please accept the terms of use');
    expect(paypal.calls.length).toBe(before);
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

    const event = captureCompleted('WH-EVENT-1', orderId, registerId);
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
  /** PayPal's event for the capture of a sign-up's order. */
  const captureCompleted = (eventId: string, orderId: string, registerId: string) => ({
    id: eventId,
    event_type: 'PAYMENT.CAPTURE.COMPLETED',
    resource: {
      id: `CAPTURE-${orderId}`,
      status: 'COMPLETED',
      custom_id: `first_day:${registerId}`,
      supplementary_data: { related_ids: { order_id: orderId } },
    },
  });

  const deliverSigned = (event: { id: string }, payload?: string) => paypal.deliverSigned(app(), event, payload);

  it('a pending capture for an email taken meanwhile is refunded in full after the webhook, once', async () => {
    paypal.captureMode = 'pending';
    const email = freshEmail();
    const { registerId, orderId } = await createAndCapture(email);
    paypal.captureMode = 'completed';
    await createAndCapture(email);
    expect(await app().db.select().from(users).where(eq(users.email, email))).toHaveLength(1);

    const event = captureCompleted('WH-EVENT-TAKEN', orderId, registerId);
    expect((await deliverSigned(event)).json().data).toEqual({ received: true, duplicate: false });
    expect((await deliverSigned(event)).json().data).toEqual({ received: true, duplicate: true });

    const refunds = paypal.calls.filter((call) => call.path === `/v2/payments/captures/CAPTURE-${orderId}/refund`);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.requestId).toBe(`refund:${registerId}`);
    const rows = await app().db.select().from(payments).where(eq(payments.registrationId, registerId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: 'refunded', refundedAmount: rows[0]!.amount });
  });

  it('a taken email’s refund that PayPal fails is owed durably: the next reconciliation pass makes it, once', async () => {
    paypal.captureMode = 'pending';
    const email = freshEmail();
    const { registerId, orderId } = await createAndCapture(email);
    paypal.captureMode = 'completed';
    await createAndCapture(email);

    paypal.refundMode = 'unavailable';
    const event = captureCompleted('WH-EVENT-TAKEN-RETRY', orderId, registerId);
    try {
      expect((await deliverSigned(event)).statusCode).toBe(502);
      const [owed] = await app().db.select().from(payments).where(eq(payments.registrationId, registerId));
      expect(owed).toMatchObject({ state: 'succeeded', refundReason: 'email_in_use', refundedAmount: 0 });

      paypal.refundMode = 'completed';
      const soon = new Date(Date.now() + 60 * 1000);
      expect(await app().billing.reconcileSignUps(soon)).toMatchObject({ refunded: 0 });
      const later = new Date(Date.now() + 6 * 60 * 1000);
      expect(await app().billing.reconcileSignUps(later)).toMatchObject({ refunded: 1 });
      expect(await app().billing.reconcileSignUps(new Date(later.getTime() + 6 * 60 * 1000))).toMatchObject({
        refunded: 0,
      });
    } finally {
      paypal.refundMode = 'completed';
    }
    const refunds = paypal.calls.filter((call) => call.path === `/v2/payments/captures/CAPTURE-${orderId}/refund`);
    expect(refunds.map((call) => [call.status, call.requestId])).toEqual([
      [500, `refund:${registerId}`],
      [201, `refund:${registerId}`],
    ]);
    const rows = await app().db.select().from(payments).where(eq(payments.registrationId, registerId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: 'refunded', refundedAmount: rows[0]!.amount, refundOwedAt: null });
  });

  function refundEvent(id: string, type: string, orderId: string, value: string, total?: string) {
    return {
      id,
      event_type: type,
      resource: {
        id: `REFUND-${id}`,
        status: 'COMPLETED',
        amount: { value, currency_code: 'USD' },
        ...(total
          ? { seller_payable_breakdown: { total_refunded_amount: { value: total, currency_code: 'USD' } } }
          : {}),
        links: [
          { rel: 'self', href: `https://api.sandbox.paypal.com/v2/payments/refunds/REFUND-${id}` },
          { rel: 'up', href: `https://api.sandbox.paypal.com/v2/payments/captures/CAPTURE-${orderId}` },
        ],
      },
    };
  }

  it('PAYMENT.CAPTURE.REFUNDED: partly, then fully refunded; the full refund ends the subscription, once', async () => {
    paypal.captureMode = 'completed';
    const email = freshEmail();
    const { orderId } = await createAndCapture(email);
    const [user] = await app().db.select().from(users).where(eq(users.email, email));
    const paymentOf = async () =>
      (
        await app()
          .db.select()
          .from(payments)
          .where(eq(payments.providerRef, `CAPTURE-${orderId}`))
      )[0]!;

    const part = refundEvent('WH-REFUND-1', 'PAYMENT.CAPTURE.REFUNDED', orderId, '0.50');
    expect((await deliverSigned(part, JSON.stringify({ ...part, id: 'WH-FORGED' }))).statusCode).toBe(400);
    expect((await deliverSigned(part)).json().data).toEqual({ received: true, duplicate: false });
    expect((await deliverSigned(part)).json().data).toEqual({ received: true, duplicate: true });
    expect(await paymentOf()).toMatchObject({ state: 'partly_refunded', refundedAmount: 50 });
    const [running] = await app().db.select().from(subscriptions).where(eq(subscriptions.userId, user!.id));
    expect(running!.status).toBe('trial');

    const rest = refundEvent('WH-REFUND-2', 'PAYMENT.CAPTURE.REFUNDED', orderId, '0.49', '0.99');
    expect((await deliverSigned(rest)).statusCode).toBe(200);
    expect(await paymentOf()).toMatchObject({ state: 'refunded', refundedAmount: 99 });
    const [ended] = await app().db.select().from(subscriptions).where(eq(subscriptions.userId, user!.id));
    expect(ended!.status).toBe('unsubscribed');
    const mail = await app().db.select().from(outboxMessages).where(eq(outboxMessages.recipient, email));
    expect(mail.filter((message) => message.subject === 'Your Kabari subscription has ended')).toHaveLength(1);
  });

  it('PAYMENT.CAPTURE.REVERSED marks the payment disputed and ends the subscription', async () => {
    paypal.captureMode = 'completed';
    const email = freshEmail();
    const { orderId } = await createAndCapture(email);
    const reversed = refundEvent('WH-REVERSED-1', 'PAYMENT.CAPTURE.REVERSED', orderId, '0.99');
    expect((await deliverSigned(reversed)).json().data).toEqual({ received: true, duplicate: false });
    const [payment] = await app()
      .db.select()
      .from(payments)
      .where(eq(payments.providerRef, `CAPTURE-${orderId}`));
    expect(payment!.state).toBe('disputed');
    const [user] = await app().db.select().from(users).where(eq(users.email, email));
    const [subscription] = await app().db.select().from(subscriptions).where(eq(subscriptions.userId, user!.id));
    expect(subscription!.status).toBe('unsubscribed');
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
    const token: string = sessionTokenOf(login);
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
