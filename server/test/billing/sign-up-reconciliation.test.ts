import { eq } from 'drizzle-orm';
import { createSession } from '../../src/auth/sessions';
import { users } from '../../src/db/schema/accounts';
import { payments, registrations, subscriptions } from '../../src/db/schema/billing';
import { outboxMessages } from '../../src/db/schema/outbox';
import { restartKey } from '../../src/billing/sign-ups';
import { describeEachDatabase } from '../support/databases';
import { FakePaypal } from '../support/fake-paypal';
import { connectFakeProviders, FAKE_PROVIDERS_ENV } from '../support/fake-providers';
import {
  paymentIntentEvent,
  postStripeWebhook,
  signedWith,
  type IntentStatus,
  type RecordedStripeCall,
  type RetrievedStatus,
} from '../support/fake-stripe';
import { freshEmail, freshIp } from '../support/sign-up';
import { buildTestApp, type TestApp } from '../support/test-app';

const ENV = { ...FAKE_PROVIDERS_ENV };

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

describeEachDatabase('the sign-up reconciliation job', (driver) => {
  let testApp: TestApp;
  const stripeCalls: RecordedStripeCall[] = [];
  let created: IntentStatus = 'requires_action';
  let retrieved: RetrievedStatus = 'requires_action';
  const paypal = new FakePaypal(ENV.PAYPAL_WEBHOOK_ID);
  let start = new Date('2031-05-01T08:00:00Z');

  beforeAll(async () => {
    await paypal.start();
    testApp = await buildTestApp(driver, ENV);
    connectFakeProviders(testApp, { stripeCalls, created: () => created, retrieved: () => retrieved, paypal });
  });

  beforeEach(() => {
    // Each test its own hour, so attempts of earlier tests are long settled before its passes run.
    start = new Date(start.getTime() + 30 * 24 * HOUR);
    app().billing.clock.set(start);
    created = 'requires_action';
    retrieved = 'requires_action';
    paypal.captureMode = 'completed';
    paypal.readOrder = 'completed';
  });

  afterAll(async () => {
    await testApp?.close();
    await paypal.stop();
  });

  const app = () => testApp.app;
  const after = (ms: number) => new Date(start.getTime() + ms);
  const account = (email: string) => ({
    email,
    displayName: 'Rina',
    locale: 'en',
    ageConfirmed: true,
    termsAccepted: true,
  });

  async function signUpWithStripe(email = freshEmail()) {
    const response = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/registerAndSign/stripe',
      remoteAddress: freshIp(),
      payload: { ...account(email), method: 'card', paymentMethodId: 'pm_card_visa' },
    });
    expect(response.statusCode).toBe(200);
    return { email, registerId: response.json().data.registerId as string };
  }

  /** A PayPal sign-up whose order the browser created; the payer's approval and its capture are up to the test. */
  async function signUpWithPaypal(email = freshEmail()) {
    const response = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/registerAndSign/paypal',
      remoteAddress: freshIp(),
      payload: { ...account(email), method: 'paypal' },
    });
    expect(response.statusCode).toBe(200);
    const data = response.json().data as { registerId: string; orderId: string };
    return { email, ...data };
  }

  const query = (registerId: string, locale = 'en') =>
    app().inject({
      method: 'GET',
      url: `/api/v1/personnal/registerQuery/${registerId}`,
      headers: { 'accept-language': locale },
    });
  const usersWith = (email: string) => app().db.select().from(users).where(eq(users.email, email));
  const paymentsOf = (registerId: string) =>
    app().db.select().from(payments).where(eq(payments.registrationId, registerId));
  const mailTo = (email: string) => app().db.select().from(outboxMessages).where(eq(outboxMessages.recipient, email));

  function stripeWebhook(eventId: string, registrationId: string) {
    const payload = paymentIntentEvent(eventId, {
      status: 'succeeded',
      metadata: { registrationId, kind: 'first_day' },
    });
    return postStripeWebhook(app(), payload, signedWith(payload, ENV.STRIPE_WEBHOOK_SECRET));
  }

  it('leaves a fresh sign-up to its webhook, then settles it once as the webhook would; the late webhook adds nothing', async () => {
    const { email, registerId } = await signUpWithStripe();
    expect((await query(registerId)).json().data.state).toBe('querying');

    const retrievals = () => stripeCalls.filter((call) => call.path === '/v1/payment_intents/pi_1').length;
    const before = retrievals();
    expect(await app().billing.reconcileSignUps(after(MINUTE))).toMatchObject({ checked: 0 });
    expect(retrievals()).toBe(before);

    retrieved = 'succeeded';
    expect(await app().billing.reconcileSignUps(after(6 * MINUTE))).toMatchObject({ checked: 1, settled: 1 });
    expect((await query(registerId)).json().data.state).toBe('created');
    expect(await usersWith(email)).toHaveLength(1);
    expect(await paymentsOf(registerId)).toMatchObject([{ state: 'succeeded', cardLast4: '4242', provider: 'stripe' }]);
    expect(await mailTo(email)).toHaveLength(1);

    // Nothing more to ask; the webhook, late, finds the sign-up settled.
    expect(await app().billing.reconcileSignUps(after(20 * MINUTE))).toMatchObject({ checked: 0 });
    const late = await stripeWebhook(`evt_late_${registerId}`, registerId);
    expect(late.json().data).toEqual({ received: true, duplicate: false });
    expect(await usersWith(email)).toHaveLength(1);
    expect(await paymentsOf(registerId)).toHaveLength(1);
    expect(await mailTo(email)).toHaveLength(1);
  });

  it('a 3-D Secure step never completed: asked again later, then the intent is cancelled and the payer unsubscribed', async () => {
    const { email, registerId } = await signUpWithStripe();
    expect(await app().billing.reconcileSignUps(after(6 * MINUTE))).toMatchObject({ checked: 1, waiting: 1 });
    // Asked at most every five minutes.
    expect(await app().billing.reconcileSignUps(after(9 * MINUTE))).toMatchObject({ checked: 0 });
    expect(await app().billing.reconcileSignUps(after(12 * MINUTE))).toMatchObject({ checked: 1, waiting: 1 });

    expect(await app().billing.reconcileSignUps(after(3 * HOUR + MINUTE))).toMatchObject({ unsubscribed: 1 });
    const cancel = stripeCalls.find((call) => call.path === '/v1/payment_intents/pi_1/cancel' && call.idempotencyKey);
    expect(cancel?.idempotencyKey).toBe(`abandon:${registerId}`);
    expect((await query(registerId)).json().data).toEqual({
      state: 'unsubscribed',
      failureCode: 'payment_abandoned',
      failureMessage:
        'The payment was not finished in time, so it was stopped: no account was created and nothing was charged. You can sign up again.',
    });
    expect((await query(registerId, 'id')).json().data.failureMessage).toMatch(/^Pembayaran tidak diselesaikan/);
    expect(await usersWith(email)).toHaveLength(0);
    expect(await paymentsOf(registerId)).toMatchObject([{ state: 'failed', failureCode: 'payment_abandoned' }]);
    const [row] = await app().db.select().from(registrations).where(eq(registrations.id, registerId));
    expect(row!.passwordHash).toBeNull();
  });

  it('an intent cancelled at Stripe ends as unsubscribed; one declined at Stripe as sign_failed with its reason', async () => {
    const cancelled = await signUpWithStripe();
    retrieved = 'canceled';
    expect(await app().billing.reconcileSignUps(after(6 * MINUTE))).toMatchObject({ unsubscribed: 1 });
    expect((await query(cancelled.registerId)).json().data).toMatchObject({
      state: 'unsubscribed',
      failureCode: 'payment_canceled',
    });

    const declined = await signUpWithStripe();
    retrieved = 'requires_payment_method';
    expect(await app().billing.reconcileSignUps(after(12 * MINUTE))).toMatchObject({ settled: 1 });
    expect((await query(declined.registerId)).json().data).toMatchObject({
      state: 'sign_failed',
      failureCode: 'insufficient_funds',
    });
    expect(await usersWith(declined.email)).toHaveLength(0);
  });

  it('a payment the provider cannot settle within a day ends as unknown; a late answer still settles it', async () => {
    const { email, registerId } = await signUpWithStripe();
    retrieved = 'processing';
    expect(await app().billing.reconcileSignUps(after(6 * HOUR))).toMatchObject({ waiting: 1 });
    expect(await app().billing.reconcileSignUps(after(24 * HOUR + MINUTE))).toMatchObject({ unknown: 1 });
    expect((await query(registerId)).json().data).toMatchObject({ state: 'unknown', failureCode: 'status_unknown' });
    const inIndonesian = await query(registerId, 'id');
    expect(inIndonesian.json().data.failureMessage).toMatch(/^Penyedia pembayaran tidak dapat memastikan/);
    // No longer asked about.
    expect(await app().billing.reconcileSignUps(after(25 * HOUR))).toMatchObject({ checked: 0 });

    const late = await stripeWebhook(`evt_unknown_${registerId}`, registerId);
    expect(late.statusCode).toBe(200);
    expect((await query(registerId)).json().data.state).toBe('created');
    expect(await usersWith(email)).toHaveLength(1);
    expect(await paymentsOf(registerId)).toHaveLength(1);
  });

  it('Stripe cannot be reached: asked again, and unknown after the long limit', async () => {
    const { registerId } = await signUpWithStripe();
    retrieved = 'missing';
    expect(await app().billing.reconcileSignUps(after(6 * MINUTE))).toMatchObject({ waiting: 1 });
    expect(await app().billing.reconcileSignUps(after(24 * HOUR))).toMatchObject({ unknown: 1 });
    expect((await query(registerId)).json().data.state).toBe('unknown');
  });

  it('PayPal: an approved order the browser never captured is captured with the browser’s request id, once', async () => {
    const { email, registerId, orderId } = await signUpWithPaypal();
    paypal.readOrder = 'approved';
    expect(await app().billing.reconcileSignUps(after(6 * MINUTE))).toMatchObject({ settled: 1 });
    const captures = paypal.calls.filter((call) => call.path === `/v2/checkout/orders/${orderId}/capture`);
    expect(captures.map((call) => call.requestId)).toEqual([`capture:${registerId}`]);
    expect((await query(registerId)).json().data.state).toBe('created');
    expect(await paymentsOf(registerId)).toMatchObject([{ state: 'succeeded', providerRef: `CAPTURE-${orderId}` }]);
    expect(await mailTo(email)).toHaveLength(1);

    // The browser's capture arriving late is answered without capturing again.
    const retried = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/registerAndSign/paypal',
      remoteAddress: freshIp(),
      payload: { ...account(email), method: 'paypal', registerId, orderId, capture: true },
    });
    expect(retried.statusCode).toBe(200);
    expect(paypal.calls.filter((call) => call.path === `/v2/checkout/orders/${orderId}/capture`)).toHaveLength(1);
    expect(await usersWith(email)).toHaveLength(1);
  });

  it('PayPal: a capture left pending is settled from the order once PayPal completes it', async () => {
    paypal.captureMode = 'pending';
    const { email, registerId, orderId } = await signUpWithPaypal();
    await app().inject({
      method: 'POST',
      url: '/api/v1/auth/registerAndSign/paypal',
      remoteAddress: freshIp(),
      payload: { ...account(email), method: 'paypal', registerId, orderId, capture: true },
    });
    paypal.readOrder = 'pending';
    expect(await app().billing.reconcileSignUps(after(6 * MINUTE))).toMatchObject({ waiting: 1 });
    paypal.readOrder = 'completed';
    expect(await app().billing.reconcileSignUps(after(12 * MINUTE))).toMatchObject({ settled: 1 });
    expect((await query(registerId)).json().data.state).toBe('created');
    expect(await paymentsOf(registerId)).toMatchObject([{ state: 'succeeded' }]);
  });

  it('PayPal: an order never approved is abandoned after three hours; a voided one at once', async () => {
    const unapproved = await signUpWithPaypal();
    paypal.readOrder = 'created';
    expect(await app().billing.reconcileSignUps(after(6 * MINUTE))).toMatchObject({ waiting: 1 });
    expect(await app().billing.reconcileSignUps(after(3 * HOUR + MINUTE))).toMatchObject({ unsubscribed: 1 });
    expect((await query(unapproved.registerId)).json().data).toMatchObject({
      state: 'unsubscribed',
      failureCode: 'payment_abandoned',
    });

    const voided = await signUpWithPaypal();
    paypal.readOrder = 'voided';
    app().billing.clock.set(after(4 * HOUR));
    expect(await app().billing.reconcileSignUps(after(4 * HOUR + 6 * MINUTE))).toMatchObject({ unsubscribed: 1 });
    expect((await query(voided.registerId, 'id')).json().data).toMatchObject({
      state: 'unsubscribed',
      failureCode: 'payment_canceled',
      failureMessage:
        'Pembayaran dibatalkan: tidak ada akun yang dibuat dan tidak ada tagihan. Anda dapat mendaftar lagi.',
    });
    expect(await usersWith(voided.email)).toHaveLength(0);
  });

  it('two passes racing (two instances) ask about and settle each sign-up once', async () => {
    const first = await signUpWithStripe();
    const second = await signUpWithStripe();
    retrieved = 'succeeded';
    const before = stripeCalls.length;
    const reports = await Promise.all([
      app().billing.reconcileSignUps(after(6 * MINUTE)),
      app().billing.reconcileSignUps(after(6 * MINUTE)),
    ]);
    expect(reports.reduce((sum, report) => sum + report.checked, 0)).toBe(2);
    expect(reports.reduce((sum, report) => sum + report.settled, 0)).toBe(2);
    expect(stripeCalls.slice(before).filter((call) => call.method === 'GET')).toHaveLength(2);
    for (const { email, registerId } of [first, second]) {
      expect(await usersWith(email)).toHaveLength(1);
      expect(await paymentsOf(registerId)).toHaveLength(1);
      expect(await mailTo(email)).toHaveLength(1);
    }
  });

  it('a renewal by hand settled by the pass after another attempt renewed the period is refunded by that pass', async () => {
    created = 'succeeded';
    const { email } = await signUpWithStripe();
    const [user] = await usersWith(email);
    // Access ended: the subscriber may pay again by hand.
    await app()
      .db.update(subscriptions)
      .set({ status: 'expired', validUntil: start })
      .where(eq(subscriptions.userId, user!.id));
    const { token } = await createSession(app().db, user!.id, 'jest');
    const renew = () =>
      app().inject({
        method: 'POST',
        url: '/api/v1/personnal/subscribe/renew',
        headers: { authorization: token },
        remoteAddress: freshIp(),
        payload: { method: 'card', paymentMethodId: 'pm_card_visa' },
      });
    // The first attempt waits for 3-D Secure (its webhook never comes); a second one renews the period at once.
    created = 'requires_action';
    const first = await renew();
    expect(first.statusCode).toBe(200);
    const { registerId } = first.json().data as { registerId: string };
    created = 'succeeded';
    expect((await renew()).statusCode).toBe(200);

    // Stripe says the first one went through after all: it bought nothing and is given back in this very pass.
    retrieved = 'succeeded';
    expect(await app().billing.reconcileSignUps(after(6 * MINUTE))).toMatchObject({ checked: 1, settled: 1 });
    const refunds = stripeCalls.filter(
      (call) => call.path === '/v1/refunds' && call.idempotencyKey === `refund:${restartKey(registerId)}`,
    );
    expect(refunds.map((call) => call.status)).toEqual([200]);
    expect(await paymentsOf(registerId)).toMatchObject([
      { state: 'refunded', refundReason: 'duplicate_payment', refundOwedAt: null },
    ]);
    const notices = (await mailTo(email)).filter((row) => row.idempotencyKey.startsWith('duplicate-payment-refunded:'));
    expect(notices).toHaveLength(1);
  });
});
