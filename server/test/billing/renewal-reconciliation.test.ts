import Stripe from 'stripe';
import { and, eq } from 'drizzle-orm';
import { outboxMessages, payments, subscriptions, users } from '../../src/db/schema';
import { reconcileRenewals } from '../../src/billing/renewal-reconciliation';
import { describeEachDatabase } from '../support/databases';
import { FakePaypal } from '../support/fake-paypal';
import { connectFakeProviders, FAKE_PROVIDERS_ENV } from '../support/fake-providers';
import type { IntentStatus, RecordedStripeCall, RetrievedStatus } from '../support/fake-stripe';
import { freshEmail, freshIp } from '../support/sign-up';
import { buildTestApp, type TestApp } from '../support/test-app';

const ENV = { ...FAKE_PROVIDERS_ENV, BILLING_PERIOD_DAYS: '30' };

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describeEachDatabase('the renewal reconciliation job', (driver) => {
  let testApp: TestApp;
  const stripeCalls: RecordedStripeCall[] = [];
  let created: IntentStatus = 'succeeded';
  let retrieved: RetrievedStatus = 'processing';
  const paypal = new FakePaypal(ENV.PAYPAL_WEBHOOK_ID);
  let start = new Date('2032-01-01T08:00:00Z');

  beforeAll(async () => {
    await paypal.start();
    testApp = await buildTestApp(driver, ENV);
    connectFakeProviders(testApp, { stripeCalls, created: () => created, retrieved: () => retrieved, paypal });
  });

  beforeEach(() => {
    // Each test its own months, so renewals of earlier tests are long settled before its passes run.
    start = new Date(start.getTime() + 90 * DAY);
    app().billing.clock.set(start);
    created = 'succeeded';
    retrieved = 'processing';
    paypal.captureMode = 'completed';
    paypal.vaultOrder = 'completed';
    paypal.readCapture = 'completed';
  });

  afterAll(async () => {
    await testApp?.close();
    await paypal.stop();
  });

  const app = () => testApp.app;
  /** When the first renewal is due (the first-day charge covers one day). */
  const due = () => new Date(start.getTime() + DAY + MINUTE);
  const after = (ms: number) => new Date(due().getTime() + ms);
  const account = (email: string) => ({
    email,
    displayName: 'Rina',
    locale: 'en',
    ageConfirmed: true,
    termsAccepted: true,
  });

  async function subscriberOf(email: string) {
    const [row] = await app()
      .db.select({ subscription: subscriptions })
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .where(eq(users.email, email));
    return row!.subscription;
  }

  const renewalOf = async (subscriptionId: string) => {
    const [row] = await app()
      .db.select()
      .from(payments)
      .where(and(eq(payments.subscriptionId, subscriptionId), eq(payments.kind, 'renewal')));
    return row!;
  };
  const mailTo = (email: string) => app().db.select().from(outboxMessages).where(eq(outboxMessages.recipient, email));

  /** A Stripe subscriber whose first renewal Stripe left `processing` (its webhook has not come). */
  async function pendingStripeRenewal() {
    const email = freshEmail();
    const response = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/registerAndSign/stripe',
      remoteAddress: freshIp(),
      payload: { ...account(email), method: 'card', paymentMethodId: 'pm_card_visa' },
    });
    expect(response.statusCode).toBe(200);
    const before = await subscriberOf(email);
    created = 'processing';
    expect(await app().billing.runRenewals(due(), before.userId)).toMatchObject({ waiting: 1 });
    created = 'succeeded';
    const renewal = await renewalOf(before.id);
    expect(renewal).toMatchObject({ state: 'pending', providerRef: 'pi_1' });
    return { email, before, renewal };
  }

  /** A PayPal subscriber (vaulted account) whose first renewal's capture PayPal left PENDING. */
  async function pendingPaypalRenewal() {
    const email = freshEmail();
    const opened = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/registerAndSign/paypal',
      remoteAddress: freshIp(),
      payload: { ...account(email), method: 'paypal' },
    });
    const { registerId, orderId } = opened.json().data as { registerId: string; orderId: string };
    const captured = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/registerAndSign/paypal',
      remoteAddress: freshIp(),
      payload: { ...account(email), method: 'paypal', registerId, orderId, capture: true },
    });
    expect(captured.statusCode).toBe(200);
    const before = await subscriberOf(email);
    paypal.vaultOrder = 'pending';
    expect(await app().billing.runRenewals(due(), before.userId)).toMatchObject({ waiting: 1 });
    const renewal = await renewalOf(before.id);
    expect(renewal).toMatchObject({ state: 'pending', providerRef: expect.stringMatching(/^CAPTURE-ORDER/) });
    return { email, before, renewal };
  }

  function stripeRenewalWebhook(eventId: string, key: string, status: 'succeeded' | 'requires_payment_method') {
    const payload = JSON.stringify({
      id: eventId,
      object: 'event',
      type: status === 'succeeded' ? 'payment_intent.succeeded' : 'payment_intent.payment_failed',
      data: {
        object: {
          id: 'pi_1',
          object: 'payment_intent',
          status,
          customer: 'cus_1',
          payment_method: 'pm_card_visa',
          metadata: { kind: 'renewal', idempotencyKey: key },
        },
      },
    });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: ENV.STRIPE_WEBHOOK_SECRET });
    return app().inject({
      method: 'POST',
      url: '/api/v1/webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      payload,
    });
  }

  const retrievals = () =>
    stripeCalls.filter((call) => call.method === 'GET' && call.path === '/v1/payment_intents/pi_1');

  it('Stripe: a renewal left processing is asked about after five minutes and renewed once; the late webhook adds nothing', async () => {
    const { email, before, renewal } = await pendingStripeRenewal();
    const asked = retrievals().length;
    expect(await app().billing.reconcileRenewals(after(MINUTE))).toMatchObject({ checked: 0 });
    expect(retrievals()).toHaveLength(asked);

    expect(await app().billing.reconcileRenewals(after(6 * MINUTE))).toMatchObject({ checked: 1, waiting: 1 });
    // Asked at most every five minutes.
    expect(await app().billing.reconcileRenewals(after(9 * MINUTE))).toMatchObject({ checked: 0 });
    retrieved = 'succeeded';
    expect(await app().billing.reconcileRenewals(after(12 * MINUTE))).toMatchObject({ checked: 1, renewed: 1 });

    const renewed = await subscriberOf(email);
    expect(renewed).toMatchObject({ status: 'active', periodIndex: 1 });
    expect(renewed.validUntil.getTime()).toBe(before.validUntil.getTime() + 30 * DAY);
    expect(await renewalOf(before.id)).toMatchObject({ state: 'succeeded', cardLast4: '4242' });
    const receipts = () => mailTo(email).then((rows) => rows.filter((row) => row.subject?.includes('receipt')));
    expect(await receipts()).toHaveLength(2);

    expect(await app().billing.reconcileRenewals(after(30 * MINUTE))).toMatchObject({ checked: 0 });
    const late = await stripeRenewalWebhook(`evt_late_${renewal.id}`, renewal.idempotencyKey, 'succeeded');
    expect(late.json().data).toEqual({ received: true, duplicate: false });
    expect(await subscriberOf(email)).toMatchObject({
      status: 'active',
      periodIndex: 1,
      validUntil: renewed.validUntil,
    });
    expect(await receipts()).toHaveLength(2);
  });

  it('Stripe: a renewal declined after processing expires the subscription with the renewal-failed email, once', async () => {
    const { email, renewal } = await pendingStripeRenewal();
    retrieved = 'requires_payment_method';
    expect(await app().billing.reconcileRenewals(after(6 * MINUTE))).toMatchObject({ checked: 1, failed: 1 });
    expect(await subscriberOf(email)).toMatchObject({ status: 'expired', periodIndex: 0 });
    expect(await renewalOf(renewal.subscriptionId!)).toMatchObject({
      state: 'failed',
      failureCode: 'insufficient_funds',
    });
    const notices = () => mailTo(email).then((rows) => rows.filter((row) => row.subject?.includes('payment failed')));
    const [notice] = await notices();
    expect(notice?.bodyText).toContain('Your card has insufficient funds.');
    expect(notice?.bodyText).toContain('nothing was charged');

    const late = await stripeRenewalWebhook(
      `evt_failed_${renewal.id}`,
      renewal.idempotencyKey,
      'requires_payment_method',
    );
    expect(late.statusCode).toBe(200);
    expect(await notices()).toHaveLength(1);
  });

  it('no answer within a day: the subscription expires with an honest notice; a late success still renews the period', async () => {
    const { email, before, renewal } = await pendingStripeRenewal();
    expect(await app().billing.reconcileRenewals(after(6 * HOUR))).toMatchObject({ waiting: 1 });
    expect(await subscriberOf(email)).toMatchObject({ status: 'trial' });

    expect(await app().billing.reconcileRenewals(after(DAY + MINUTE))).toMatchObject({ checked: 1, unconfirmed: 1 });
    expect(await subscriberOf(email)).toMatchObject({ status: 'expired', periodIndex: 0 });
    expect(await renewalOf(before.id)).toMatchObject({ state: 'pending' });
    const notices = () => mailTo(email).then((rows) => rows.filter((row) => row.subject?.includes('payment failed')));
    const [notice] = await notices();
    expect(notice?.bodyText).toContain('could not tell us whether your payment went through');
    expect(notice?.bodyText).toContain('If this payment does go through after all');
    expect(notice?.bodyText).not.toContain('nothing was charged');
    // Not asked about again.
    const asked = retrievals().length;
    expect(await app().billing.reconcileRenewals(after(2 * DAY))).toMatchObject({ checked: 0 });
    expect(retrievals()).toHaveLength(asked);

    const late = await stripeRenewalWebhook(`evt_unconfirmed_${renewal.id}`, renewal.idempotencyKey, 'succeeded');
    expect(late.statusCode).toBe(200);
    const renewed = await subscriberOf(email);
    expect(renewed).toMatchObject({ status: 'active', periodIndex: 1 });
    expect(renewed.validUntil.getTime()).toBe(before.validUntil.getTime() + 30 * DAY);
    expect(await notices()).toHaveLength(1);
  });

  it('Stripe cannot be asked: waiting, then the same honest expiry after a day', async () => {
    const { email } = await pendingStripeRenewal();
    retrieved = 'missing';
    expect(await app().billing.reconcileRenewals(after(6 * MINUTE))).toMatchObject({ waiting: 1 });
    expect(await app().billing.reconcileRenewals(after(DAY))).toMatchObject({ unconfirmed: 1 });
    expect((await subscriberOf(email)).status).toBe('expired');
  });

  it('PayPal: a capture left PENDING is asked about by its capture id and renewed once it completes', async () => {
    const { email, before, renewal } = await pendingPaypalRenewal();
    paypal.readCapture = 'pending';
    expect(await app().billing.reconcileRenewals(after(6 * MINUTE))).toMatchObject({ waiting: 1 });
    paypal.readCapture = 'completed';
    expect(await app().billing.reconcileRenewals(after(12 * MINUTE))).toMatchObject({ renewed: 1 });
    const reads = paypal.calls.filter((call) => call.path === `/v2/payments/captures/${renewal.providerRef}`);
    expect(reads.map((call) => call.method)).toEqual(['GET', 'GET']);
    expect(await subscriberOf(email)).toMatchObject({ status: 'active', periodIndex: 1 });
    expect((await subscriberOf(email)).validUntil.getTime()).toBe(before.validUntil.getTime() + 30 * DAY);
    expect(await renewalOf(before.id)).toMatchObject({ state: 'succeeded' });
  });

  it('PayPal: a capture declined later expires the subscription with PayPal’s reason by email', async () => {
    const { email } = await pendingPaypalRenewal();
    paypal.readCapture = 'declined';
    expect(await app().billing.reconcileRenewals(after(6 * MINUTE))).toMatchObject({ failed: 1 });
    expect((await subscriberOf(email)).status).toBe('expired');
    const notice = (await mailTo(email)).find((row) => row.subject?.includes('payment failed'));
    expect(notice?.bodyText).toContain('PayPal declined the payment.');
  });

  it('two passes racing (two instances) ask about and settle each renewal once', async () => {
    const first = await pendingStripeRenewal();
    const second = await pendingStripeRenewal();
    retrieved = 'succeeded';
    const deps = {
      db: app().db,
      mailer: app().mailer,
      config: app().billing.config,
      stripe: app().billing.stripe,
      paypal: app().billing.paypal,
      log: app().log,
    };
    const asked = retrievals().length;
    const reports = await Promise.all([
      reconcileRenewals(deps, after(6 * MINUTE)),
      reconcileRenewals(deps, after(6 * MINUTE)),
    ]);
    expect(reports.reduce((sum, report) => sum + report.checked, 0)).toBe(2);
    expect(reports.reduce((sum, report) => sum + report.renewed, 0)).toBe(2);
    expect(retrievals().length - asked).toBe(2);
    for (const { email, before } of [first, second]) {
      const subscription = await subscriberOf(email);
      expect(subscription).toMatchObject({ status: 'active', periodIndex: 1 });
      expect(subscription.validUntil.getTime()).toBe(before.validUntil.getTime() + 30 * DAY);
      const receipts = (await mailTo(email)).filter((row) => row.subject?.includes('receipt'));
      expect(receipts).toHaveLength(2);
    }
  });
});
